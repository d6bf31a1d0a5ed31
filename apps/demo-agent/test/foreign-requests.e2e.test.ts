// Every route of the Worker under `wrangler dev` (real workerd, real HTTP on loopback), asked as
// another web page or a DNS-rebinding page would: another Host reaches nothing, a change from
// another origin, as text/plain, as a form or with no content type runs nothing, a cross-site
// WebSocket upgrade of /chat is refused before the agent sees it, and the page's own requests and an
// MCP client (no Origin) still work. Then the agent's state shows that nothing happened.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, rawRequest, startWranglerDev } from "@codemode/demo-kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

const JSON_TYPE = { "content-type": "application/json" };
const MCP_ACCEPT = { accept: "application/json, text/event-stream" };
const mcpList = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

/** Every route that changes something, with a body it would take from the page. */
const CHANGES: Array<{
  method: string;
  path: string;
  body?: string;
  extra?: Record<string, string>;
}> = [
  {
    method: "POST",
    path: "/api/run",
    body: JSON.stringify({
      code: "async () => tracker.create_task({ projectId: 'web', title: 'x' })",
    }),
  },
  { method: "POST", path: "/api/approve", body: JSON.stringify({ executionId: "exec_x" }) },
  { method: "POST", path: "/api/reject", body: JSON.stringify({ executionId: "exec_x", seq: 0 }) },
  { method: "POST", path: "/api/rollback", body: JSON.stringify({ executionId: "exec_x" }) },
  { method: "POST", path: "/api/cancel", body: JSON.stringify({ executionId: "exec_x" }) },
  {
    method: "POST",
    path: "/api/snippets",
    body: JSON.stringify({ name: "x", executionId: "exec_x" }),
  },
  { method: "POST", path: "/api/snippets/x/run", body: JSON.stringify({ input: {} }) },
  { method: "DELETE", path: "/api/snippets/x" },
  {
    method: "POST",
    path: "/api/catalog/items",
    body: JSON.stringify({ name: "Forged", price: 1 }),
  },
  { method: "DELETE", path: "/api/catalog/items/1" },
  { method: "POST", path: "/mcp", body: mcpList, extra: MCP_ACCEPT },
];

describe("requests from elsewhere", () => {
  let server: DevServer;
  let app: string;
  let host: string;
  /** another origin on this machine: another port, and the same port under another loopback name */
  let others: string[];
  beforeAll(async () => {
    server = await startWranglerDev({ appDir });
    app = server.url;
    host = new URL(app).host;
    const { port } = new URL(app);
    others = [`http://127.0.0.1:${Number(port) + 1}`, `http://localhost:${port}`];
  });
  afterAll(() => server?.stop());

  const at = (path: string) => `${app}${path}`;

  /** What the agent holds, read as the page reads it. */
  const state = async () => {
    const read = async (path: string) => JSON.parse((await rawRequest(at(path))).body) as unknown;
    return {
      runs: await read("/api/executions?limit=100"),
      catalog: await read("/api/catalog/items"),
      snippets: await read("/api/snippets"),
    };
  };
  let before: Awaited<ReturnType<typeof state>>;

  it("reads as the page does, first", async () => {
    before = await state();
    expect((before.catalog as unknown[]).length).toBeGreaterThan(0);
  });

  it("answers nothing to a Host it does not serve (a DNS-rebinding page), on every route", async () => {
    const port = new URL(app).port;
    for (const rebound of [`rebound.example:${port}`, `localhost.rebound.example:${port}`]) {
      const headers = { host: rebound, origin: `http://${rebound}` };
      for (const path of [
        "/api/executions",
        "/api/pending",
        "/api/model",
        "/api/catalog/items",
        "/openapi.json",
        "/api/tracker",
      ]) {
        const answer = await rawRequest(at(path), { headers });
        expect(answer.status, `${rebound} GET ${path}`).toBe(403);
        expect(answer.body).toContain("ALLOWED_HOSTS");
      }
      for (const change of CHANGES) {
        const answer = await rawRequest(at(change.path), {
          method: change.method,
          headers: { ...headers, ...JSON_TYPE, ...change.extra },
          ...(change.body ? { body: change.body } : {}),
        });
        expect(answer.status, `${rebound} ${change.method} ${change.path}`).toBe(403);
      }
      // an MCP client's request, without Origin, under the rebound name
      const mcp = await rawRequest(at("/mcp"), {
        method: "POST",
        headers: { host: rebound, ...JSON_TYPE, ...MCP_ACCEPT },
        body: mcpList,
      });
      expect(mcp.status).toBe(403);
      expect((await rawRequest(at("/chat"), { websocket: true, headers })).status).toBe(403);
    }
  });

  it("refuses every change from another origin, before any route runs it", async () => {
    for (const origin of others) {
      for (const change of CHANGES) {
        const answer = await rawRequest(at(change.path), {
          method: change.method,
          headers: { origin, ...JSON_TYPE, ...change.extra },
          ...(change.body ? { body: change.body } : {}),
        });
        expect(answer.status, `${origin} ${change.method} ${change.path}`).toBe(403);
      }
      // what a browser says of a request from another site, with no Origin
      const answer = await rawRequest(at("/api/run"), {
        method: "POST",
        headers: { "sec-fetch-site": "same-site", ...JSON_TYPE },
        body: CHANGES[0]?.body ?? "",
      });
      expect(answer.status).toBe(403);
    }
  });

  it("refuses a cross-site WebSocket upgrade of /chat, and one that names no origin", async () => {
    for (const origin of [...others, "null", "http://evil.example"]) {
      const answer = await rawRequest(at("/chat"), { websocket: true, headers: { origin } });
      expect(answer.status, origin).toBe(403);
    }
    expect((await rawRequest(at("/chat"), { websocket: true })).status).toBe(403);
    expect(
      (await rawRequest(at("/chat"), { websocket: true, headers: { origin: app } })).status,
    ).toBe(101);
  });

  it("refuses text/plain, forms and a missing content type, from the page's own origin too", async () => {
    for (const type of [
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=----x",
      undefined,
    ]) {
      for (const change of CHANGES) {
        const answer = await rawRequest(at(change.path), {
          method: change.method,
          headers: { origin: app, ...(type ? { "content-type": type } : {}), ...change.extra },
          ...(change.body ? { body: change.body } : {}),
        });
        expect(answer.status, `${type} ${change.method} ${change.path}`).toBe(415);
      }
    }
    // a form from another origin: refused for its origin already
    const form = await rawRequest(at("/api/approve"), {
      method: "POST",
      headers: { origin: others[0] ?? "", "content-type": "application/x-www-form-urlencoded" },
      body: "executionId=exec_x",
    });
    expect(form.status).toBe(403);
  });

  it("refuses a change to the page's API that proves no origin, and serves an MCP client that sends none", async () => {
    const run = await rawRequest(at("/api/run"), {
      method: "POST",
      headers: JSON_TYPE,
      body: CHANGES[0]?.body ?? "",
    });
    expect(run.status).toBe(403);
    expect(run.body).toContain(`Origin: ${app}`);
    const mcp = await rawRequest(at("/mcp"), {
      method: "POST",
      headers: { ...JSON_TYPE, ...MCP_ACCEPT },
      body: mcpList,
    });
    expect(mcp.status).toBe(200);
    expect(mcp.body).toContain("delete_note");
  });

  it("ran nothing of all that, and still serves the page's own requests", async () => {
    expect(await state()).toEqual(before);
    const run = await rawRequest(at("/api/run"), {
      method: "POST",
      headers: { origin: app, ...JSON_TYPE },
      body: JSON.stringify({ code: "async () => (await tracker.list_projects({})).length" }),
    });
    expect(run.status).toBe(200);
    expect(JSON.parse(run.body), run.body).toMatchObject({ status: "completed" });
    // under the other loopback names too, each from its own origin
    const port = new URL(app).port;
    for (const name of ["localhost", "[::1]"]) {
      const own = `http://${name}:${port}`;
      const answer = await rawRequest(at("/api/snippets"), {
        method: "POST",
        headers: { host: `${name}:${port}`, origin: own, ...JSON_TYPE },
        body: JSON.stringify({
          name: `from-${name === "localhost" ? "localhost" : "ipv6"}`,
          executionId: JSON.parse(run.body).executionId,
        }),
      });
      expect(answer.status, own).toBe(200);
    }
    expect(host).toMatch(/^127\.0\.0\.1:\d+$/);
  });
});

describe("a deployed name, allowed by ALLOWED_HOSTS", () => {
  let server: DevServer;
  beforeAll(async () => {
    server = await startWranglerDev({
      appDir,
      vars: { ALLOWED_HOSTS: "demo.example.com, other.example:8443" },
    });
  });
  afterAll(() => server?.stop());

  it("serves the names the var lists, from their own origin, and still no other", async () => {
    const read = (host: string) => rawRequest(`${server.url}/api/model`, { headers: { host } });
    expect((await read("demo.example.com")).status).toBe(200);
    expect((await read("other.example:8443")).status).toBe(200);
    expect((await read("other.example:9443")).status).toBe(403);
    expect((await read("evil.example")).status).toBe(403);
    const remove = (origin: string) =>
      rawRequest(`${server.url}/api/snippets/nothing`, {
        method: "DELETE",
        headers: { host: "demo.example.com", origin, ...JSON_TYPE },
      });
    expect((await remove("http://demo.example.com")).status).toBe(200);
    expect((await remove("http://evil.example")).status).toBe(403);
  });
});
