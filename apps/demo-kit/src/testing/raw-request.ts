// An HTTP request as any client (or an attacker's page) may send it: every header given as is, the
// Host and Origin too (fetch sets Host itself), and a WebSocket upgrade answered by its status.
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";

export interface RawRequest {
  method?: string;
  /** sent as given; `host` defaults to the url's */
  headers?: Record<string, string>;
  body?: string;
  /** asks for a WebSocket upgrade (a GET with the handshake's headers); 101 means accepted */
  websocket?: boolean;
}

export interface RawResponse {
  status: number;
  body: string;
}

/** Sends one request to `url` over a fresh connection and reads the whole answer. */
export function rawRequest(url: string, options: RawRequest = {}): Promise<RawResponse> {
  const target = new URL(url);
  const headers: Record<string, string> = {
    host: target.host,
    ...(options.websocket
      ? {
          connection: "Upgrade",
          upgrade: "websocket",
          "sec-websocket-version": "13",
          "sec-websocket-key": randomBytes(16).toString("base64"),
        }
      : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? "GET",
        headers,
        agent: false,
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        response.on("error", reject);
      },
    );
    sent.on("upgrade", (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 101, body: "" });
    });
    sent.on("error", reject);
    sent.end(options.body);
  });
}
