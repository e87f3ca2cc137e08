import type { BuildOptions } from "esbuild";

export declare const root: string;
export declare const SERVER_ENTRY: string;
export declare const bundleOptions: BuildOptions;
export declare function buildServer(outfile: string): Promise<void>;
export declare const CLI_ENTRY: string;
export declare function cliBuildOptions(outdir: string): BuildOptions;
export declare function buildCli(dir: string): Promise<string>;
