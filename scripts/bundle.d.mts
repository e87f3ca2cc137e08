import type { BuildOptions } from "esbuild";

export declare const root: string;
export declare const SERVER_ENTRY: string;
export declare const bundleOptions: BuildOptions;
export declare function buildServer(outfile: string): Promise<void>;
