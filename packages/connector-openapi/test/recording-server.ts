// A loopback HTTP server (Node `http`, port 0) that answers every request with 200 and keeps what
// each one carried, so a test sees exactly which headers, query parameters and cookies arrived. It
// serves a document at /openapi.json, and answers 404 for paths under /missing.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** the raw query string, without `?` */
  query: string;
  headers: IncomingMessage["headers"];
}

export interface RecordingServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  /** served at /openapi.json */
  document: unknown;
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  let server: Server | undefined;
  const state: RecordingServer = {
    origin: "",
    requests: [],
    document: undefined,
    close: () =>
      new Promise((resolve, reject) => {
        server?.close((error) => (error ? reject(error) : resolve()));
        server?.closeAllConnections();
      }),
  };
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", state.origin);
    request.resume();
    request.on("end", () => {
      if (url.pathname === "/openapi.json") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(state.document));
        return;
      }
      state.requests.push({
        method: request.method ?? "",
        path: url.pathname,
        query: url.search.replace(/^\?/, ""),
        headers: request.headers,
      });
      const missing = url.pathname.startsWith("/missing");
      response.writeHead(missing ? 404 : 200, { "content-type": "application/json" });
      response.end(
        JSON.stringify(missing ? { error: `nothing at ${url.pathname}` } : { ok: true }),
      );
    });
  });
  // no idle timeout: ending a kept-alive connection as a late client reuses it fails that fetch
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
