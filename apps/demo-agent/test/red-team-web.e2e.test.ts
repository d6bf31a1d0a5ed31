// A red team's attacks on the demo agent's web surfaces after issue 25, written against the running
// Worker (`wrangler dev` on loopback, real workerd): as another web page, a page whose name rebinds
// to this machine, another tab of the page, or a raw client would try to run something the person
// did not approve, read what the person sees, or make an answer cover what no card showed. Requests
// go out byte for byte over a socket (duplicate headers, odd Hosts, absolute request targets, path
// spellings); the chat is spoken over the WebSocket as a tab would; Chromium only where the browser
// matters (a page framing the demo). Each test states the promise and checks the agent's state.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type DevServer,
  eventually,
  launchChromium,
  rawRequest,
  startWranglerDev,
  WAIT_MS,
} from "@codemode/demo-kit/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalCard, ChatEvent } from "../src/chat-event.ts";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/** An answer read off the wire: status, headers (lower-case names, every value), body (de-chunked). */
interface WireAnswer {
  status: number;
  headers: Map<string, string[]>;
  body: string;
}

function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < raw.length) {
    const end = raw.indexOf("\r\n", at);
    if (end < 0) break;
    const size = Number.parseInt(raw.subarray(at, end).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parseAnswer(raw: Buffer): WireAnswer {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.subarray(0, split < 0 ? raw.length : split).toString("latin1");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  const rest = split < 0 ? Buffer.alloc(0) : raw.subarray(split + 4);
  const chunked = headers.get("transfer-encoding")?.some((value) => /chunked/i.test(value));
  return {
    status: Number(/^HTTP\/\d(?:\.\d)? (\d{3})/.exec(statusLine)?.[1] ?? 0),
    headers,
    body: (chunked ? dechunk(rest) : rest).toString("utf8"),
  };
}

/**
 * One request written byte for byte on a fresh connection: `head` is the request line and its
 * header lines as given (duplicates, odd spellings); a body gets its Content-Length. Resolves with
 * the answer once the server closes, or as soon as a `101` head arrives (an accepted upgrade).
 */
function wire(port: number, head: string[], body = ""): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1");
    const done = () => {
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks)));
    };
    socket.on("connect", () => {
      const length = body === "" ? [] : [`Content-Length: ${Buffer.byteLength(body)}`];
      socket.write(`${[...head, ...length, "Connection: close"].join("\r\n")}\r\n\r\n`);
      // the server may answer (and close) before it reads a body it refuses
      socket.end(body, () => undefined);
    });
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString("latin1");
      if (/^HTTP\/1\.1 101 /.test(text) && text.includes("\r\n\r\n")) done();
    });
    socket.on("close", done);
    // a refusal may close the connection while a body is still being written: what came back counts
    socket.on("error", (error) => (chunks.length > 0 ? done() : reject(error)));
  });
}

const WS_VERSION = "Sec-WebSocket-Version: 13";
const WS_KEY = "Sec-WebSocket-Key: cmVkLXRlYW0tcmVkLXRlYW0=";
/** a WebSocket handshake's headers but Host and Origin */
const WS_HANDSHAKE = ["Connection: Upgrade", "Upgrade: websocket", WS_VERSION, WS_KEY];

/** The chat as another tab of the page speaks it: its own socket, the page's origin. */
class ChatTab {
  readonly events: ChatEvent[] = [];
  readonly #socket: WebSocket;
  readonly #waiters = new Set<() => void>();
  readonly opened: Promise<void>;

  constructor(app: string) {
    // Node's WebSocket (undici) takes `{ headers }` where a browser's takes protocols: it sends the
    // Origin a tab of the page sends
    const init = { headers: { origin: app } } as unknown as string[];
    this.#socket = new WebSocket(`${app.replace(/^http/, "ws")}/chat`, init);
    this.#socket.onmessage = (message) => {
      this.events.push(JSON.parse(String(message.data)) as ChatEvent);
      for (const wake of this.#waiters) wake();
    };
    this.opened = new Promise((resolve, reject) => {
      this.#socket.onopen = () => resolve();
      this.#socket.onerror = () => reject(new Error("the chat socket failed"));
    });
  }

  send(request: unknown): void {
    this.#socket.send(JSON.stringify(request));
  }

  /** The first event from index `from` on that matches, now or when it comes. */
  next<T extends ChatEvent>(match: (event: ChatEvent) => event is T, from = 0): Promise<T> {
    return new Promise((resolve, reject) => {
      const look = () => {
        const found = this.events.slice(from).find(match);
        if (!found) return false;
        this.#waiters.delete(wake);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const wake = () => void look();
      // a bound for a failure message, not a pacing: every wait ends on the event itself
      const timer = setTimeout(() => {
        this.#waiters.delete(wake);
        reject(new Error(`no such chat event; got ${this.events.map((e) => e.type).join(",")}`));
      }, WAIT_MS);
      this.#waiters.add(wake);
      look();
    });
  }

  close(): void {
    this.#socket.close();
  }
}

const isCard = (event: ChatEvent): event is Extract<ChatEvent, { type: "approval-request" }> =>
  event.type === "approval-request";
const isDone = (event: ChatEvent): event is Extract<ChatEvent, { type: "done" }> =>
  event.type === "done";
const isStale =
  (approvalId: string) =>
  (event: ChatEvent): event is Extract<ChatEvent, { type: "approval-stale" }> =>
    event.type === "approval-stale" && event.approvalId === approvalId;
const isError = (event: ChatEvent): event is Extract<ChatEvent, { type: "error" }> =>
  event.type === "error";

interface Task {
  id: number;
  title: string;
  status: string;
}

describe("the demo agent, attacked as the web would (red team)", () => {
  let server: DevServer;
  let app: string;
  let port: number;
  let host: string;
  /** a run started from Run code that waits for its create_task: no card, the queue decides it */
  let held: { executionId: string; handle: unknown };

  const read = async <T = unknown>(path: string): Promise<T> =>
    (await (await fetch(`${app}${path}`)).json()) as T;
  /** What the person sees, read as the page reads it. */
  const state = async () => ({
    runs: await read("/api/executions?limit=200"),
    pending: await read("/api/pending"),
    tracker: await read("/api/tracker"),
    notes: await read("/api/notes"),
    catalog: await read("/api/catalog/items"),
    snippets: await read("/api/snippets"),
  });
  const tasks = async () => (await read<{ tasks: Task[] }>("/api/tracker")).tasks;
  /** A change as the page's own scripts make it. */
  const post = async (path: string, body: unknown) => {
    const answer = await rawRequest(`${app}${path}`, {
      method: "POST",
      headers: { origin: app, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: JSON.parse(answer.body) as Record<string, unknown> };
  };
  const queued = async (executionId: string) =>
    (await read<Array<{ executionId: string; handle: unknown }>>("/api/queue")).find(
      (run) => run.executionId === executionId,
    );

  beforeAll(async () => {
    server = await startWranglerDev({ appDir });
    app = server.url;
    host = new URL(app).host;
    port = Number(new URL(app).port);
    const started = await post("/api/run", {
      code: "async () => tracker.create_task({ projectId: 'mobile', title: 'Held by the red team' })",
    });
    expect(started.body, JSON.stringify(started.body)).toMatchObject({ status: "paused" });
    const executionId = String(started.body.executionId);
    const run = await queued(executionId);
    expect(run?.handle).toBeDefined();
    held = { executionId, handle: run?.handle };
  });
  afterAll(() => server?.stop());

  it("refuses a change under every spelling of Origin, Sec-Fetch-Site and Host that a foreign or rebinding page could send", async () => {
    const before = await state();
    const rebound = `rebound.example:${port}`;
    const approve = JSON.stringify({ executionId: held.executionId, handle: held.handle });
    const run = JSON.stringify({
      code: "async () => notes.add_note({ title: 'Forged by a header', body: 'x' })",
    });
    const json = "Content-Type: application/json";
    const variants: Array<{ name: string; headers: string[]; target?: string }> = [
      { name: "Origin: null", headers: [`Host: ${host}`, "Origin: null", json] },
      {
        name: "two Origins, the app's first",
        headers: [`Host: ${host}`, `Origin: ${app}`, "Origin: http://evil.example", json],
      },
      {
        name: "two Origins, the app's last",
        headers: [`Host: ${host}`, "Origin: http://evil.example", `Origin: ${app}`, json],
      },
      {
        name: "the app's origin as a prefix",
        headers: [`Host: ${host}`, `Origin: ${app}.evil.example`, json],
      },
      {
        name: "the app's origin as userinfo",
        headers: [`Host: ${host}`, `Origin: ${app}@evil.example`, json],
      },
      {
        name: "the app's Origin, cross-site per Sec-Fetch-Site",
        headers: [`Host: ${host}`, `Origin: ${app}`, "Sec-Fetch-Site: cross-site", json],
      },
      {
        name: "the app's Origin, same-origin then cross-site",
        headers: [
          `Host: ${host}`,
          `Origin: ${app}`,
          "Sec-Fetch-Site: same-origin",
          "Sec-Fetch-Site: cross-site",
          json,
        ],
      },
      ...["same-site", "cross-site", "none", "Same-Origin"].map((site) => ({
        name: `no Origin, Sec-Fetch-Site: ${site}`,
        headers: [`Host: ${host}`, `Sec-Fetch-Site: ${site}`, json],
      })),
      {
        name: "a rebound Host with the app's Origin",
        headers: [`Host: ${rebound}`, `Origin: ${app}`, json],
      },
      ...[`localhost.:${port}`, `[::ffff:127.0.0.1]:${port}`, `0.0.0.0:${port}`, rebound].map(
        (name) => ({
          name: `Host ${name}, Origin to match`,
          headers: [`Host: ${name}`, `Origin: http://${name}`, json],
        }),
      ),
      {
        name: "two Hosts, the app's first",
        headers: [`Host: ${host}`, `Host: ${rebound}`, `Origin: http://${rebound}`, json],
      },
      {
        name: "two Hosts, the rebound one first",
        headers: [`Host: ${rebound}`, `Host: ${host}`, `Origin: http://${rebound}`, json],
      },
      {
        name: "an absolute target on the app, under the rebound Host",
        headers: [`Host: ${rebound}`, `Origin: http://${rebound}`, json],
        target: `${app}`,
      },
      ...[
        "text/plain;application/json",
        "text/plain; charset=application/json",
        "application/json, text/plain",
        "application/jsonp",
        "multipart/form-data; boundary=application/json",
      ].map((type) => ({
        name: `Content-Type: ${type}, from another origin`,
        headers: [`Host: ${host}`, "Origin: http://evil.example", `Content-Type: ${type}`],
      })),
      ...["text/plain;application/json", "application/json, text/plain", "application/jsonp"].map(
        (type) => ({
          name: `Content-Type: ${type}, from the app's origin`,
          headers: [`Host: ${host}`, `Origin: ${app}`, `Content-Type: ${type}`],
        }),
      ),
    ];
    const answers: Record<string, number> = {};
    for (const variant of variants) {
      for (const [path, body] of [
        ["/api/approve", approve],
        ["/api/run", run],
      ] as const) {
        const answer = await wire(
          port,
          [`POST ${variant.target ?? ""}${path} HTTP/1.1`, ...variant.headers],
          body,
        );
        answers[`${variant.name} ${path}`] = answer.status;
      }
    }
    // a large body from another origin: refused before anything reads it
    const large = await wire(
      port,
      ["POST /api/run HTTP/1.1", `Host: ${host}`, "Origin: http://evil.example", json],
      JSON.stringify({ code: `async () => ${"1 + ".repeat(256 * 1024)}1` }),
    );
    answers["a 1 MiB body from another origin"] = large.status;
    const taken = Object.entries(answers).filter(([, status]) => status >= 100 && status < 400);
    expect(taken, JSON.stringify(answers)).toEqual([]);
    expect(await state()).toEqual(before);
    // the same request from the page itself is taken: the refusals above are the headers' doing
    const own = await wire(
      port,
      [
        "POST /api/run HTTP/1.1",
        `Host: ${host}`,
        `Origin: ${app}`,
        "Content-Type: Application/JSON; charset=utf-8",
      ],
      JSON.stringify({ code: "async () => 42" }),
    );
    expect(own.status, own.body).toBe(200);
  });

  it("grants no other origin a read: no CORS header on any route, to a preflight or to a read", async () => {
    const routes = [
      "/",
      "/app.js",
      "/api/model",
      "/api/queue",
      "/api/pending",
      "/api/executions",
      `/api/executions/${held.executionId}`,
      `/api/executions/${held.executionId}/timeline`,
      "/api/snippets",
      "/api/notes",
      "/api/tracker",
      "/api/describe",
      "/api/run",
      "/api/approve",
      "/api/catalog/items",
      "/openapi.json",
      "/mcp",
      "/chat",
    ];
    const granted: string[] = [];
    for (const path of routes) {
      for (const method of ["OPTIONS", "GET", "HEAD"]) {
        const answer = await wire(port, [
          `${method} ${path} HTTP/1.1`,
          `Host: ${host}`,
          "Origin: http://evil.example",
          "Access-Control-Request-Method: POST",
          "Access-Control-Request-Headers: content-type",
          "Access-Control-Request-Private-Network: true",
        ]);
        for (const name of answer.headers.keys()) {
          if (name.startsWith("access-control-")) granted.push(`${method} ${path}: ${name}`);
        }
      }
    }
    expect(granted).toEqual([]);
  });

  it("changes nothing on a GET, HEAD or OPTIONS of a change route, a method override, or a read of a paused run", async () => {
    const before = await state();
    const id = held.executionId;
    const changes = [
      "/api/run?code=async%20()%20%3D%3E%201",
      `/api/approve?executionId=${id}`,
      `/api/reject?executionId=${id}`,
      `/api/rollback?executionId=${id}`,
      "/api/snippets?name=forged&executionId=x",
      "/api/snippets/forged/run",
      "/api/snippets/forged",
      "/api/catalog/items?name=Forged&price=1",
      "/api/catalog/items/1",
      "/mcp",
    ];
    const body = JSON.stringify({ executionId: id, handle: held.handle, code: "async () => 1" });
    for (const path of changes) {
      for (const method of ["GET", "HEAD", "OPTIONS"]) {
        for (const override of ["POST", "DELETE"]) {
          await wire(
            port,
            [
              `${method} ${path} HTTP/1.1`,
              `Host: ${host}`,
              "Origin: http://evil.example",
              "Content-Type: application/json",
              `X-HTTP-Method-Override: ${override}`,
              `X-Method-Override: ${override}`,
              `X-HTTP-Method: ${override}`,
            ],
            body,
          );
        }
      }
    }
    // every read the page makes, the paused run's rollback preview among them
    for (const path of [
      "/api/model",
      "/api/suggestions",
      "/api/queue",
      "/api/pending",
      "/api/executions",
      `/api/executions/${id}`,
      `/api/executions/${id}/timeline`,
      `/api/executions/${id}/rollback-preview`,
      "/api/describe",
      "/api/describe?target=tracker",
      "/api/search?q=task",
      "/openapi.json",
    ]) {
      const answer = await wire(port, [
        `GET ${path} HTTP/1.1`,
        `Host: ${host}`,
        "Origin: http://evil.example",
      ]);
      expect(answer.status, path).toBeLessThan(500);
    }
    expect(await state()).toEqual(before);
  });

  it("takes a path for a service (no Origin needed) only where the service answers, however the path is spelled", async () => {
    const before = await state();
    const run = JSON.stringify({
      code: "async () => notes.add_note({ title: 'Forged by a path', body: 'x' })",
    });
    const approve = JSON.stringify({ executionId: held.executionId, handle: held.handle });
    const taken: string[] = [];
    for (const [path, body] of [
      ["//api/run", run],
      ["/API/run", run],
      ["/api/run/", run],
      ["/api/./run", run],
      ["/api//run", run],
      ["/api%2frun", run],
      ["/%61pi/run", run],
      ["/api/run;.json", run],
      ["/api/catalog/../run", run],
      ["/api/catalog/%2e%2e/run", run],
      ["/api/catalog/..%2frun", run],
      ["/api/catalog/items/../../run", run],
      ["/api/catalog/items/%2e%2e/%2e%2e/approve", approve],
      ["/api/catalog/..%2fapprove", approve],
      ["/mcp/../api/approve", approve],
      ["/mcp%2f..%2fapi/approve", approve],
      ["/openapi.json/../api/approve", approve],
    ] as const) {
      // no Origin and no Sec-Fetch-Site: a client that is not a browser, which only the services take
      const answer = await wire(
        port,
        [`POST ${path} HTTP/1.1`, `Host: ${host}`, "Content-Type: application/json"],
        body,
      );
      if (answer.status >= 100 && answer.status < 400) {
        taken.push(`${path}: ${answer.status} ${answer.body.slice(0, 120)}`);
      }
    }
    expect(taken).toEqual([]);
    expect(await state()).toEqual(before);
  });

  it("refuses a WebSocket upgrade of the chat from a foreign page however it is spelled", async () => {
    const chat = "GET /chat HTTP/1.1";
    const own = `Host: ${host}`;
    const evil = "Origin: http://evil.example";
    /** the handshake with another Upgrade header (or two) */
    const upgradeAs = (...upgrade: string[]) => [
      "Connection: Upgrade",
      ...upgrade,
      WS_VERSION,
      WS_KEY,
    ];
    const upgrades: Array<[name: string, head: string[]]> = [
      ["no Origin, same-site", [chat, own, ...WS_HANDSHAKE, "Sec-Fetch-Site: same-site"]],
      ["no Origin, cross-site", [chat, own, ...WS_HANDSHAKE, "Sec-Fetch-Site: cross-site"]],
      ["no Origin, none", [chat, own, ...WS_HANDSHAKE, "Sec-Fetch-Site: none"]],
      ["two Origins", [chat, own, ...WS_HANDSHAKE, `Origin: ${app}`, evil]],
      ["Origin with a path", [chat, own, ...WS_HANDSHAKE, `Origin: ${app}/`]],
      ["Origin as a prefix", [chat, own, ...WS_HANDSHAKE, `Origin: ${app}.evil.example`]],
      ["another agent", ["GET /chat?agent=demo HTTP/1.1", own, ...WS_HANDSHAKE, evil]],
      [
        "a rebound Host, the app's Origin",
        [chat, `Host: rebound.example:${port}`, ...WS_HANDSHAKE, `Origin: ${app}`],
      ],
      ["Upgrade: WebSocket", [chat, own, ...upgradeAs("Upgrade: WebSocket"), evil]],
      ["an Upgrade list", [chat, own, ...upgradeAs("Upgrade: h2c, websocket"), evil]],
      [
        "two Upgrade headers",
        [chat, own, ...upgradeAs("Upgrade: h2c", "Upgrade: websocket"), evil],
      ],
      ["as a POST", ["POST /chat HTTP/1.1", own, ...WS_HANDSHAKE, evil]],
      ["through a path", ["GET /api/../chat HTTP/1.1", own, ...WS_HANDSHAKE, evil]],
    ];
    const accepted: string[] = [];
    for (const [name, head] of upgrades) {
      const answer = await wire(port, head);
      if (answer.status >= 100 && answer.status < 300) accepted.push(`${name}: ${answer.status}`);
    }
    expect(accepted).toEqual([]);
    // the page's own upgrade, its origin spelled in any case, is taken
    const taken = await wire(port, [chat, own, ...WS_HANDSHAKE, `Origin: ${app.toUpperCase()}`]);
    expect(taken.status).toBe(101);
  });

  it("serves a foreign Host only the page's own static files, which hold none of the person's data", async () => {
    // a note only the agent's state holds (added as an MCP client may, without an Origin)
    const marker = `red-team-marker-${Date.now()}`;
    const added = await rawRequest(`${app}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "add_note", arguments: { title: marker, body: marker } },
      }),
    });
    expect(added.status).toBe(200);
    expect(JSON.stringify(await read("/api/notes"))).toContain(marker);
    const rebound = `rebound.example:${port}`;
    const leaks: string[] = [];
    for (const path of [
      "/",
      "/index.html",
      "/app.js",
      "/api.js",
      "/chat.js",
      "/notes.js",
      "/.dev.vars",
      "/wrangler.jsonc",
      "/..%2fwrangler.jsonc",
      "/%2e%2e/wrangler.jsonc",
      "/..%2f..%2f..%2fpackage.json",
      "/src/index.ts",
      "/.wrangler/state",
      "/node_modules/wrangler/package.json",
      "/api/notes",
      "/api/notes.js",
      "/chat.js/../api/notes",
    ]) {
      const answer = await wire(port, [`GET ${path} HTTP/1.1`, `Host: ${rebound}`]);
      for (const secret of [marker, '"compatibility_date"', "class DemoAgent"]) {
        if (answer.body.includes(secret)) leaks.push(`${path} (${answer.status}) shows ${secret}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it("decides nothing on a forged, foreign or replayed answer to a card, over the page's own socket", async () => {
    const tab = new ChatTab(app);
    await tab.opened;
    const before = await tasks();
    tab.send({ type: "chat", text: "create a task for every catalog item under $20 in mobile" });
    const { card: first } = await tab.next(isCard);
    await tab.next(isDone);
    expect(first.pending).toHaveLength(1);
    const forged = (card: ApprovalCard) => ({
      ...card.handle,
      calls: card.handle.calls.map((call) => ({
        ...call,
        digest: `${call.digest.slice(0, -1)}${call.digest.endsWith("0") ? "1" : "0"}`,
      })),
    });
    const attempts: Array<{ approvalId: string; handle: unknown }> = [
      { approvalId: first.approvalId, handle: forged(first) },
      { approvalId: first.approvalId, handle: { ...first.handle, executionId: held.executionId } },
      { approvalId: first.approvalId, handle: held.handle },
      { approvalId: first.approvalId, handle: { ...first.handle, calls: [] } },
      { approvalId: first.approvalId, handle: { ...first.handle, version: 99 } },
      { approvalId: first.approvalId, handle: "the handle" },
    ];
    for (const attempt of attempts) {
      const from = tab.events.length;
      tab.send({ type: "approval", approved: true, ...attempt });
      await tab.next(isStale(first.approvalId), from);
    }
    const unknown = tab.events.length;
    tab.send({
      type: "approval",
      approvalId: `${first.approvalId}x`,
      approved: true,
      handle: first.handle,
    });
    await tab.next(isError, unknown);
    // none of that decided the card: it still waits, and nothing was created
    expect(await tasks()).toEqual(before);
    expect((await queued(first.executionId))?.handle).toEqual(first.handle);

    // the person approves the first creation; the run asks for the second on a new card
    const approved = tab.events.length;
    tab.send({
      type: "approval",
      approvalId: first.approvalId,
      approved: true,
      handle: first.handle,
    });
    const { card: second } = await tab.next(isCard, approved);
    await tab.next(isDone, approved);
    expect(second.executionId).toBe(first.executionId);
    expect(second.handle).not.toEqual(first.handle);
    const afterFirst = await tasks();
    expect(afterFirst).toHaveLength(before.length + 1);

    // the first answer replayed, and the two cards' handles crossed: each decides nothing
    for (const attempt of [
      { approvalId: first.approvalId, handle: first.handle },
      { approvalId: first.approvalId, handle: second.handle },
      { approvalId: second.approvalId, handle: first.handle },
    ]) {
      const from = tab.events.length;
      tab.send({ type: "approval", approved: true, ...attempt });
      await tab.next(isStale(attempt.approvalId), from);
    }
    // the first card's handle through the queue, too
    const replayed = await post("/api/approve", {
      executionId: first.executionId,
      handle: first.handle,
    });
    expect(replayed.status).toBe(409);
    expect(replayed.body.stale).toBe(true);
    expect(await tasks()).toEqual(afterFirst);
    expect((await queued(second.executionId))?.handle).toEqual(second.handle);

    // the person rejects the second: the run ends with one task created, as approved
    const rejected = tab.events.length;
    tab.send({
      type: "approval",
      approvalId: second.approvalId,
      approved: false,
      handle: second.handle,
    });
    await tab.next(isDone, rejected);
    expect(await tasks()).toEqual(afterFirst);
    await eventually(
      async () => (await read<{ status: string }>(`/api/executions/${first.executionId}`)).status,
    ).toBe("rejected");
    tab.close();
  });

  it("lets exactly one of two tabs and the queue decide a card they answer at once, and the card says which", async () => {
    const a = new ChatTab(app);
    const b = new ChatTab(app);
    await Promise.all([a.opened, b.opened]);
    const title = "Raced by two tabs";
    a.send({ type: "chat", text: `create a task ${title} in mobile` });
    const { card } = await a.next(isCard);
    await a.next(isDone);
    const { approvalId, executionId, handle } = card;
    const fromA = a.events.length;
    const fromB = b.events.length;
    // all three at once: tab A approves, tab B rejects, the queue (a third tab) rejects
    a.send({ type: "approval", approvalId, approved: true, handle });
    b.send({ type: "approval", approvalId, approved: false, reason: "tab B says no", handle });
    const queue = await post("/api/reject", { executionId, handle, reason: "the queue says no" });
    await eventually(
      async () => (await read<{ status: string }>(`/api/executions/${executionId}`)).status,
    ).not.toBe("paused");
    await a.next(isDone, fromA);
    const answers = a.events
      .slice(fromA)
      .filter(
        (event): event is Extract<ChatEvent, { type: "approval-answered" }> =>
          event.type === "approval-answered",
      );
    // one answer, broadcast once; the tab that lost hears "already decided"
    expect(answers).toHaveLength(1);
    const [answer] = answers;
    const staleHeard =
      a.events.slice(fromA).filter(isStale(approvalId)).length +
      b.events.slice(fromB).filter(isStale(approvalId)).length;
    const queueDecided = queue.status === 200;
    expect(staleHeard + (queueDecided ? 0 : 1)).toBe(2);
    // and the effect is the recorded answer's: the task exists exactly when the card says approved
    const created = (await tasks()).filter((task) => task.title === title);
    const run = await read<{ status: string }>(`/api/executions/${executionId}`);
    expect(created).toHaveLength(answer?.answer.approved ? 1 : 0);
    expect(run.status).toBe(answer?.answer.approved ? "completed" : "rejected");
    a.close();
    b.close();
  });

  it("shows in the queue the card's own handle, and a handle for some of its calls, in another order or of another run decides nothing", async () => {
    const tab = new ChatTab(app);
    await tab.opened;
    const before = await tasks();
    tab.send({ type: "chat", text: "mark tasks 2, 3 and 5 as done" });
    const { card } = await tab.next(isCard);
    await tab.next(isDone);
    expect(card.pending.length).toBeGreaterThan(1);
    const { executionId, handle } = card;
    expect((await queued(executionId))?.handle).toEqual(handle);
    const [one, ...others] = handle.calls;
    const variants = [
      { name: "the first call only", handle: { ...handle, calls: [one] } },
      { name: "the calls but the first", handle: { ...handle, calls: others } },
      { name: "the calls reversed", handle: { ...handle, calls: [...handle.calls].reverse() } },
      { name: "a call twice", handle: { ...handle, calls: [...handle.calls, one] } },
      { name: "the held run's handle", handle: held.handle },
    ];
    const decided: string[] = [];
    for (const variant of variants) {
      for (const path of ["/api/approve", "/api/reject"]) {
        const answer = await post(path, { executionId, handle: variant.handle });
        if (answer.status === 200) decided.push(`${path} ${variant.name}`);
      }
      // and on the card, over the socket
      const from = tab.events.length;
      tab.send({
        type: "approval",
        approvalId: card.approvalId,
        approved: true,
        handle: variant.handle,
      });
      await tab.next(isStale(card.approvalId), from);
    }
    // the held run's handle named under this run's id, and this run's handle under the held run's
    for (const [id, given] of [
      [held.executionId, handle],
      [executionId, { ...(held.handle as object), executionId }],
    ] as const) {
      const answer = await post("/api/approve", { executionId: id, handle: given });
      if (answer.status === 200) decided.push(`approve ${id} with another run's handle`);
    }
    expect(decided).toEqual([]);
    expect(await tasks()).toEqual(before);
    expect((await queued(executionId))?.handle).toEqual(handle);
    expect((await queued(held.executionId))?.handle).toEqual(held.handle);
    // the queue's Reject all with the card's handle ends it, through the card
    const from = tab.events.length;
    const rejected = await post("/api/reject", {
      executionId,
      handle,
      reason: "red team cleans up",
    });
    expect(rejected.status).toBe(200);
    await tab.next(isDone, from);
    expect(await tasks()).toEqual(before);
    tab.close();
  });

  describe("a page that frames the demo", () => {
    let browser: Browser;
    let attacker: Server;
    let attackerUrl: string;
    beforeAll(async () => {
      browser = await launchChromium();
      attacker = createServer((request, response) => {
        const target = new URL(request.url ?? "/", "http://x").searchParams.get("frame") ?? "";
        response.setHeader("content-type", "text/html; charset=utf-8");
        // the demo in an invisible frame over a decoy button the person means to press
        response.end(`<!doctype html><title>Win a prize</title>
<style>body{margin:0} #decoy{position:absolute;left:0;top:0;padding:8px}
iframe{position:absolute;left:0;top:0;width:1400px;height:1000px;border:0;opacity:0.001;z-index:2}</style>
<button id="decoy">Claim your prize</button>
<iframe id="demo" src="${target.replace(/"/g, "")}" onload="document.body.dataset.framed='1'"></iframe>
<script>decoy.onclick = () => { document.body.dataset.decoy = "clicked"; };</script>`);
      });
      await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
      attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
    });
    afterAll(async () => {
      await browser?.close();
      await new Promise<void>((resolve) =>
        attacker ? attacker.close(() => resolve()) : resolve(),
      );
    });

    // Found: the page (static assets, served before the Worker) was sent without
    // `Content-Security-Policy: frame-ancestors 'none'` or `X-Frame-Options: DENY`, so any page can
    // frame the demo invisibly; the framed demo is the app's own origin, so its chat socket is
    // accepted and it shows the waiting card. A click the person aims at the hostile page's decoy
    // lands on the card's Approve: the task is created, recorded "Approved in the chat".
    // Now `public/_headers` sends `Content-Security-Policy: frame-ancestors 'none'` and
    // `X-Frame-Options: DENY` with every asset, and Chromium refuses the frame.
    it("cannot get the person's click on a card's Approve through an invisible frame (clickjacking)", async () => {
      const tab = new ChatTab(app);
      await tab.opened;
      const title = "Approved through a frame";
      tab.send({ type: "chat", text: `create a task ${title} in mobile` });
      const { card } = await tab.next(isCard);
      await tab.next(isDone);
      const pendingBefore = await read("/api/pending");

      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      page.setDefaultTimeout(WAIT_MS);
      await page.goto(`${attackerUrl}?frame=${encodeURIComponent(app)}`);
      // the frame has loaded: the demo, or the browser's refusal to frame it
      await page.waitForSelector("body[data-framed]", { state: "attached" });
      const framed = page.frames().find((frame) => frame.url().startsWith(app));
      if (framed) {
        // the framed demo shows the card; the hostile page moves its decoy under Approve
        const approve = framed.locator(
          `.approval-card[data-approval-id="${card.approvalId}"] button.card-approve`,
        );
        await approve.waitFor();
        const box = await approve.boundingBox();
        if (!box) throw new Error("the framed card's Approve has no box");
        await page.evaluate(
          ({ x, y }) => {
            const decoy = document.querySelector<HTMLElement>("#decoy");
            if (decoy) Object.assign(decoy.style, { left: `${x}px`, top: `${y}px` });
          },
          { x: box.x, y: box.y },
        );
        // the person clicks the decoy they see: the click reaches the decoy, or the card under it
        const from = tab.events.length;
        await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        const settled = (promise: Promise<unknown>) =>
          promise.then(
            () => true,
            () => false,
          );
        await Promise.race([
          settled(page.waitForSelector('body[data-decoy="clicked"]', { state: "attached" })),
          settled(tab.next(isDone, from)),
        ]);
      }
      await page.close();
      tab.close();
      expect((await tasks()).filter((task) => task.title === title)).toEqual([]);
      expect(await read("/api/pending")).toEqual(pendingBefore);
    });
  });
});
