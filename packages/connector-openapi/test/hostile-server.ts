// A loopback HTTP server (Node `http`, port 0) that a test scripts to act as a hostile API: each
// test sets `answer` to decide what every request gets (a redirect, an echo of the credentials, a
// 64 MB body, an endless document). It keeps what each request carried and how many body bytes it
// managed to send before the client hung up.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  /** path and query */
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface HostileServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  requests: SeenRequest[];
  /** answers every request; the default sends `{ ok: true }` */
  answer: (request: SeenRequest, response: ServerResponse) => unknown;
  /** bytes written by `stream`, and whether the client stopped reading before the end */
  streamed: { bytes: number; cut: boolean; done: Promise<void> };
  /** writes `total` bytes of `chunk` repeated (with backpressure), after `head` */
  stream(
    response: ServerResponse,
    options: { status: number; type: string; head?: string; chunk: string; total: number },
  ): Promise<void>;
  close(): Promise<void>;
}

export function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

export async function startHostileServer(): Promise<HostileServer> {
  let server: Server | undefined;
  const state: HostileServer = {
    origin: "",
    port: 0,
    requests: [],
    answer: (_request, response) => json(response, 200, { ok: true }),
    streamed: { bytes: 0, cut: false, done: Promise.resolve() },
    stream(response, { status, type, head = "", chunk, total }) {
      const streamed = { bytes: 0, cut: false, done: Promise.resolve() };
      state.streamed = streamed;
      streamed.done = new Promise<void>((resolve) => {
        response.on("close", () => {
          streamed.cut = !response.writableFinished;
          resolve();
        });
        response.writeHead(status, { "content-type": type });
        const piece = Buffer.from(chunk);
        const write = () => {
          if (streamed.bytes === 0 && head) {
            response.write(head);
            streamed.bytes += Buffer.byteLength(head);
          }
          while (streamed.bytes < total && !response.destroyed) {
            streamed.bytes += piece.length;
            if (!response.write(piece)) {
              response.once("drain", write);
              return;
            }
          }
          if (!response.destroyed) response.end();
        };
        write();
      });
      return streamed.done;
    },
    close: () =>
      new Promise((resolve, reject) => {
        server?.close((error) => (error ? reject(error) : resolve()));
        server?.closeAllConnections();
      }),
  };
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const seen: SeenRequest = {
        method: request.method ?? "",
        url: request.url ?? "/",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      state.requests.push(seen);
      Promise.resolve(state.answer(seen, response)).catch((error: unknown) => {
        if (!response.headersSent) json(response, 500, { error: String(error) });
      });
    });
  });
  // no idle timeout: ending a kept-alive connection as a late client reuses it fails that fetch
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  state.port = (server.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${state.port}`;
  return state;
}
