// The Streamable HTTP servers this package's README shows, in TypeScript, on a loopback node:http
// server: stateless (`createMcpHandler`, a new McpServer per request, serving the 2026-07-28 protocol
// and 2025-era clients without sessions) and with sessions (a 2025-era transport per session, kept in
// a map until DELETE or close), each behind the SDK's Host and Origin guards for the address it
// serves. Used by the Streamable HTTP tests and the MCP conformance scenarios.
import { randomUUID } from "node:crypto";
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { CodemodeRuntime } from "@codemode/core";
import {
  hostHeaderValidation,
  NodeStreamableHTTPServerTransport,
  originValidation,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { type CodemodeToolsOptions, registerCodemodeTools } from "../src/index.ts";

export type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;
export type ToolsOptions = Omit<CodemodeToolsOptions, "runtime">;
/** the host names (without port) a server accepts in `Host` and `Origin`; none: no protection */
export interface Protection {
  hostnames?: string[];
}

export const refuse = (response: ServerResponse, status: number, message: string) => {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
};

/** the README's protection for a server on loopback */
export const protectionFor = (): Protection => ({ hostnames: ["127.0.0.1", "localhost"] });

/** the SDK's Host and Origin guards, in front of `handle` */
function guarded(protection: Protection, handle: Handler): Handler {
  const { hostnames } = protection;
  if (!hostnames) return handle;
  const host = hostHeaderValidation(hostnames);
  const origin = originValidation(hostnames);
  return async (request, response) => {
    if (!host(request, response) || !origin(request, response)) return;
    await handle(request, response);
  };
}

/** the application's server: its own tools (none here) and Code Mode's, over the shared runtime */
function mcpServer(runtime: CodemodeRuntime, options: ToolsOptions) {
  const server = new McpServer({ name: "shop", version: "1.0.0" });
  registerCodemodeTools(server, { runtime, ...options });
  return server;
}

/** stateless: `createMcpHandler`, a new server for every request, all over one runtime */
export function statelessHandler(
  runtime: CodemodeRuntime,
  options: ToolsOptions,
  protection: Protection,
): Handler {
  const handler = toNodeHandler(createMcpHandler(() => mcpServer(runtime, options)));
  return guarded(protection, async (request, response) => {
    await handler(request, response);
  });
}

/** with sessions (2025-era clients): a server and transport per session, by mcp-session-id */
export function sessionHandler(
  runtime: CodemodeRuntime,
  options: ToolsOptions,
  protection: Protection,
  maxSessions = 100,
) {
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const handle: Handler = guarded(protection, async (request, response) => {
    const id = request.headers["mcp-session-id"];
    if (id !== undefined) {
      const transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport) return refuse(response, 404, "Session not found.");
      return transport.handleRequest(request, response);
    }
    if (sessions.size >= maxSessions) return refuse(response, 503, "Too many sessions.");
    const server = mcpServer(runtime, options);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
    if (transport.sessionId === undefined) await server.close(); // not an initialize request
  });
  return { handle, sessions };
}

const servers: HttpServer[] = [];

export interface Loopback {
  /** the MCP endpoint's URL */
  url: URL;
  /** the README's protection for this server's address */
  protection: Protection;
  /** answers every request with `handle` from now on (before, with 503) */
  serve(handle: Handler): void;
}

/** a node:http server on 127.0.0.1 at a free port, for a handler made once its port is known */
export async function loopback(): Promise<Loopback> {
  let handle: Handler = async (_request, response) => refuse(response, 503, "Starting.");
  const http = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent) refuse(response, 500, String(error));
    });
  });
  servers.push(http);
  // no idle timeout: ending a kept-alive connection as a late client reuses it fails that fetch
  http.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    protection: protectionFor(),
    serve: (next) => {
      handle = next;
    },
  };
}

/** closes every server `loopback` started (each test's afterEach) */
export async function closeServers(): Promise<void> {
  for (const http of servers.splice(0)) {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
}
