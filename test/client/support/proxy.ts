/**
 * A real TCP proxy in front of a real server, for the client's connection
 * tests: it forwards bytes both ways, counts connections, and can be told
 * how to treat each new connection — forward it, drop it before the
 * request reaches the server, cut it after the server answered (so the
 * server did the work but the client never hears), hold it without a word,
 * or answer with a proxy's own HTML error page.
 */

import net from "node:net";

export type Behaviour = "forward" | "drop-request" | "cut-answer" | "hold" | "html-502";

export class Proxy {
  /** How the next connections are treated, in order; then "forward". */
  readonly plan: Behaviour[] = [];
  connections = 0;
  readonly #server: net.Server;
  readonly #sockets = new Set<net.Socket>();

  private constructor(
    readonly port: number,
    server: net.Server,
  ) {
    this.#server = server;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Listens on `port` (0: any) and forwards to `target` (a port on 127.0.0.1). */
  static async start(target: number, port = 0): Promise<Proxy> {
    let proxy: Proxy | undefined;
    const server = net.createServer((client) => proxy?.accept(client, target));
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    proxy = new Proxy((server.address() as net.AddressInfo).port, server);
    return proxy;
  }

  private accept(client: net.Socket, target: number): void {
    this.connections++;
    this.#sockets.add(client);
    client.on("close", () => this.#sockets.delete(client));
    client.on("error", () => undefined);
    const behaviour = this.plan.shift() ?? "forward";
    if (behaviour === "hold") return;
    if (behaviour === "drop-request") {
      client.once("data", () => client.resetAndDestroy());
      return;
    }
    if (behaviour === "html-502") {
      client.once("data", () => {
        const body = "<html><body>502 Bad Gateway</body></html>";
        client.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/html\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
      });
      return;
    }
    const upstream = net.connect(target, "127.0.0.1");
    this.#sockets.add(upstream);
    upstream.on("close", () => this.#sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    client.pipe(upstream);
    if (behaviour === "cut-answer") {
      upstream.once("data", () => {
        upstream.destroy();
        client.resetAndDestroy();
      });
    } else upstream.pipe(client);
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
