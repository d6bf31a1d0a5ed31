// The Worker's API under `wrangler dev` (real workerd, real HTTP on loopback), asked as another web
// page or a DNS-rebinding page would: another Host reaches nothing, and a chat request (which runs
// the model) from another origin, as text/plain, as a form or with no content type is refused; the
// page's own request still streams its answer.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, rawRequest, startWranglerDev } from "@codemode/demo-kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatBody } from "./chat-body.ts";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("requests to the browser demo's Worker from elsewhere", () => {
  let server: DevServer;
  beforeAll(async () => {
    server = await startWranglerDev({ appDir });
  });
  afterAll(() => server?.stop());

  const chat = (headers: Record<string, string>, body = chatBody) =>
    rawRequest(`${server.url}/api/chat`, { method: "POST", headers, body });

  it("answers nothing to a Host it does not serve", async () => {
    const rebound = `rebound.example:${new URL(server.url).port}`;
    const model = await rawRequest(`${server.url}/api/model`, { headers: { host: rebound } });
    expect(model.status).toBe(403);
    expect(model.body).toContain("ALLOWED_HOSTS");
    const answer = await chat({
      host: rebound,
      origin: `http://${rebound}`,
      "content-type": "application/json",
    });
    expect(answer.status).toBe(403);
  });

  it("refuses a chat request from another origin, one that proves none, and one that is not JSON", async () => {
    const { port } = new URL(server.url);
    for (const origin of [
      `http://127.0.0.1:${Number(port) + 1}`,
      `http://localhost:${port}`,
      "null",
    ]) {
      expect((await chat({ origin, "content-type": "application/json" })).status, origin).toBe(403);
    }
    expect((await chat({ "content-type": "application/json" })).status).toBe(403);
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      expect((await chat({ origin: server.url, "content-type": type })).status, type).toBe(415);
    }
    expect((await chat({ origin: server.url })).status).toBe(415);
  });

  it("streams the answer to the page's own request", async () => {
    const answer = await chat({ origin: server.url, "content-type": "application/json" });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"type":"tool-input-available"');
  });
});
