// The task API of task-api-document.ts, on loopback (Node `http`, port 0), in memory. It checks
// credentials itself and keeps what each request carried, so tests see exactly what was sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const BEARER_TOKEN = "tok_live_4f9a2c7e";
export const API_KEY = "key_live_81b3d5f0";
export const BASIC_USER = "ada";
export const BASIC_PASSWORD = "pw_live_c0ffee42";

interface Task {
  id: string;
  title: string;
  done: boolean;
  tags: string[];
  priority?: string;
}

/** What one request carried, as the server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface TaskServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  tasks: Map<string, Task>;
  requests: SeenRequest[];
  /** served at /openapi.json when set */
  document?: unknown;
  /** told when a GET /v1/hold arrives, which is never answered: it waits until its client goes away */
  onHold?: () => void;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

function send(response: ServerResponse, status: number, value?: unknown): void {
  if (value === undefined) {
    response.writeHead(status).end();
    return;
  }
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

/** The scheme of the credential the request carries, or undefined. */
function credentialOf(request: IncomingMessage, url: URL): string | undefined {
  const authorization = request.headers.authorization ?? "";
  if (authorization === `Bearer ${BEARER_TOKEN}`) return "bearer";
  const basic = Buffer.from(`${BASIC_USER}:${BASIC_PASSWORD}`).toString("base64");
  if (authorization === `Basic ${basic}`) return "basic";
  if (request.headers["x-api-key"] === API_KEY) return "apiKeyHeader";
  if (url.searchParams.get("api_key") === API_KEY) return "apiKeyQuery";
  if ((request.headers.cookie ?? "").split("; ").includes(`session=${API_KEY}`))
    return "apiKeyCookie";
  return undefined;
}

async function handle(
  server: TaskServer,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const raw = await readBody(request);
  const url = new URL(request.url ?? "/", server.origin);
  server.requests.push({
    method: request.method ?? "",
    url: `${url.pathname}${url.search}`,
    headers: request.headers,
    body: raw.toString("utf8"),
  });
  const path = url.pathname.replace(/^\/v1/, "");
  const method = request.method ?? "GET";
  if (method === "GET" && path === "/health") return send(response, 200, { ok: true });
  if (method === "GET" && url.pathname === "/openapi.json" && server.document) {
    return send(response, 200, server.document);
  }

  const scheme = credentialOf(request, url);
  if (!scheme) {
    // a careless server that echoes what it got: the connector must not pass it on
    return send(response, 401, {
      error: "unauthorized",
      detail: `got Authorization: ${request.headers.authorization ?? "(none)"}`,
    });
  }
  if (method === "GET" && path === "/whoami") return send(response, 200, { scheme });
  if (method === "GET" && path === "/hold") {
    server.onHold?.();
    return;
  }
  if (scheme !== "bearer") return send(response, 403, { error: "tasks need a bearer token" });

  if (path === "/tasks" && method === "GET") {
    const cookie = request.headers.cookie ?? "";
    if (!/(^|; )workspace=acme($|;)/.test(cookie)) {
      return send(response, 400, { error: "the workspace cookie is missing" });
    }
    const tags = url.searchParams.getAll("tag");
    const done = url.searchParams.get("done");
    const limit = Number(url.searchParams.get("limit") ?? "20");
    const tasks = [...server.tasks.values()]
      .reverse()
      .filter((task) => tags.every((tag) => task.tags.includes(tag)))
      .filter((task) => done === null || String(task.done) === done)
      .slice(0, limit);
    const requestId = request.headers["x-request-id"];
    if (typeof requestId === "string") response.setHeader("x-request-id", requestId);
    return send(response, 200, tasks);
  }
  if (path === "/tasks" && method === "POST") {
    if (request.headers["content-type"] !== "application/json") {
      return send(response, 415, { error: "JSON only" });
    }
    const input = JSON.parse(raw.toString("utf8")) as Partial<Task>;
    if (!input.title) return send(response, 400, { error: "title is required" });
    const task: Task = {
      id: String(server.tasks.size + 1),
      title: input.title,
      done: false,
      tags: input.tags ?? [],
      ...(input.priority ? { priority: input.priority } : {}),
    };
    server.tasks.set(task.id, task);
    return send(response, 201, task);
  }
  const match = /^\/tasks\/([^/]+)(\/comments|\/attachments)?$/.exec(path);
  if (match) {
    const id = decodeURIComponent(match[1] as string);
    const task = server.tasks.get(id);
    if (!task) {
      return send(response, 404, {
        error: `no task ${id}`,
        detail: `Task ${id} does not exist. ${"Check the id against listTasks. ".repeat(40)}`,
      });
    }
    if (!match[2] && method === "GET") return send(response, 200, task);
    if (!match[2] && method === "DELETE") {
      server.tasks.delete(id);
      return send(response, 204);
    }
    if (match[2] === "/comments" && method === "POST") {
      if (request.headers["content-type"] !== "application/x-www-form-urlencoded") {
        return send(response, 415, { error: "form only" });
      }
      const form = new URLSearchParams(raw.toString("utf8"));
      return send(response, 201, {
        taskId: id,
        text: form.get("text"),
        mentions: form.getAll("mentions"),
      });
    }
    if (match[2] === "/attachments" && method === "POST") {
      const form = await new Request(url, {
        method: "POST",
        headers: { "content-type": request.headers["content-type"] ?? "" },
        body: raw,
      }).formData();
      const file = form.get("file");
      if (!(file instanceof Blob)) return send(response, 400, { error: "file is missing" });
      return send(response, 201, { size: file.size, caption: form.get("caption") ?? "" });
    }
  }
  return send(response, 404, { error: `no route ${method} ${path}` });
}

/** Starts the task API on 127.0.0.1, on a free port. */
export async function startTaskServer(): Promise<TaskServer> {
  let server: Server | undefined;
  const state: TaskServer = {
    origin: "",
    port: 0,
    tasks: new Map(),
    requests: [],
    close: () =>
      new Promise((resolve, reject) => {
        server?.close((error) => (error ? reject(error) : resolve()));
        server?.closeAllConnections();
      }),
  };
  server = createServer((request, response) => {
    handle(state, request, response).catch((error: unknown) => {
      send(response, 500, { error: String(error) });
    });
  });
  // no idle timeout: ending a kept-alive connection as a late client reuses it fails that fetch
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  state.port = (server.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${state.port}`;
  return state;
}
