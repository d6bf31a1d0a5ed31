// A red team's attacks on the browser demo's Worker after issue 25, under `wrangler dev` on loopback:
// the Worker holds no state of the person's (the to-dos live in the page), so what another page or a
// page whose name rebinds to this machine could take is a model run on the person's behalf
// (`POST /api/chat`, on their provider account) or the Worker's settings. Each spelling of Origin,
// Host, Sec-Fetch-Site, content type and path a foreign page could produce is refused, no route
// grants another origin a read, and a foreign Host gets only the page's static files.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, rawRequest, startWranglerDev } from "@codemode/demo-kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatBody } from "./chat-body.ts";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/** A setting only the Worker holds: no answer may show it. */
const SECRET = `red-team-secret-${Date.now()}`;

/** What an answer that ran the model streams (the UI message stream's first event). */
const RAN_THE_MODEL = '"type":"start"';

describe("the browser demo's Worker, attacked as the web would (red team)", () => {
  let server: DevServer;
  let app: string;
  let port: number;
  beforeAll(async () => {
    // the offline model still runs; the key is a setting the Worker must never hand out
    server = await startWranglerDev({ appDir, vars: { OPENAI_API_KEY: SECRET } });
    app = server.url;
    port = Number(new URL(app).port);
  });
  afterAll(() => server?.stop());

  const chat = (headers: Record<string, string>, path = "/api/chat") =>
    rawRequest(`${app}${path}`, { method: "POST", headers, body: chatBody });

  it("runs the model for no spelling of Origin, Sec-Fetch-Site, Host or content type a foreign or rebinding page could send", async () => {
    const json = { "content-type": "application/json" };
    const variants: Array<[name: string, headers: Record<string, string>]> = [
      ["Origin: null", { origin: "null", ...json }],
      ["the app's origin as a prefix", { origin: `${app}.evil.example`, ...json }],
      ["the app's origin as userinfo", { origin: `${app}@evil.example`, ...json }],
      ["the app's origin with a path", { origin: `${app}/`, ...json }],
      ["another port", { origin: `http://127.0.0.1:${port + 1}`, ...json }],
      ["another loopback name", { origin: `http://localhost:${port}`, ...json }],
      ["the app's Origin, cross-site", { origin: app, "sec-fetch-site": "cross-site", ...json }],
      ...["same-site", "cross-site", "none", "Same-Origin"].map(
        (site): [string, Record<string, string>] => [
          `no Origin, Sec-Fetch-Site: ${site}`,
          { "sec-fetch-site": site, ...json },
        ],
      ),
      ...[`localhost.:${port}`, `[::ffff:127.0.0.1]:${port}`, `0.0.0.0:${port}`].map(
        (name): [string, Record<string, string>] => [
          `Host ${name}, Origin to match`,
          { host: name, origin: `http://${name}`, ...json },
        ],
      ),
      [
        "a rebound Host, the app's Origin",
        { host: `rebound.example:${port}`, origin: app, ...json },
      ],
      ...[
        "text/plain;application/json",
        "application/json, text/plain",
        "application/jsonp",
        "multipart/form-data; boundary=application/json",
      ].map((type): [string, Record<string, string>] => [
        `Content-Type: ${type}`,
        { origin: app, "content-type": type },
      ]),
    ];
    const ran: string[] = [];
    for (const [name, headers] of variants) {
      const answer = await chat(headers);
      if (answer.status < 400 || answer.body.includes(RAN_THE_MODEL)) {
        ran.push(`${name}: ${answer.status}`);
      }
    }
    expect(ran).toEqual([]);
    // the page's own request runs it: the refusals above are the headers' doing
    const own = await chat({ origin: app, "content-type": "application/json; charset=utf-8" });
    expect(own.status).toBe(200);
    expect(own.body).toContain(RAN_THE_MODEL);
  });

  it("runs the model under no other spelling of the chat's path", async () => {
    /** another page, a client that names no origin, a simple request */
    const senders: Array<Record<string, string>> = [
      { origin: "http://evil.example", "content-type": "application/json" },
      { "content-type": "application/json" },
      { "content-type": "text/plain" },
    ];
    const ran: string[] = [];
    for (const path of [
      "/API/chat",
      "//api/chat",
      "/api%2fchat",
      "/%61pi/chat",
      "/api/./chat",
      "/api//chat",
      "/api/chat/",
      "/build/../api/chat",
      "/api/chat;.js",
    ]) {
      for (const headers of senders) {
        const answer = await chat(headers, path);
        if (answer.body.includes(RAN_THE_MODEL)) ran.push(`${path} ${JSON.stringify(headers)}`);
      }
    }
    expect(ran).toEqual([]);
  });

  it("grants no other origin a read: no CORS header on a preflight or a read", async () => {
    const granted: string[] = [];
    for (const path of ["/", "/build/app.js", "/api/model", "/api/chat"]) {
      for (const method of ["OPTIONS", "GET", "HEAD"]) {
        const answer = await fetch(`${app}${path}`, {
          method,
          headers: {
            origin: "http://evil.example",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
            "access-control-request-private-network": "true",
          },
        });
        await answer.arrayBuffer();
        for (const name of answer.headers.keys()) {
          if (name.startsWith("access-control-")) granted.push(`${method} ${path}: ${name}`);
        }
      }
    }
    expect(granted).toEqual([]);
  });

  it("gives a foreign Host only the page's static files, and no answer shows the Worker's settings", async () => {
    const rebound = `rebound.example:${port}`;
    const shown: string[] = [];
    for (const path of [
      "/",
      "/index.html",
      "/build/app.js",
      "/build/app.js.map",
      "/.dev.vars",
      "/wrangler.jsonc",
      "/..%2fwrangler.jsonc",
      "/%2e%2e/.dev.vars",
      "/src/index.ts",
      "/api/model",
    ]) {
      for (const host of [rebound, new URL(app).host]) {
        const answer = await rawRequest(`${app}${path}`, { headers: { host } });
        for (const secret of [SECRET, '"compatibility_date"', "refuseForeignRequest("]) {
          if (answer.body.includes(secret)) shown.push(`${host}${path} shows ${secret}`);
        }
      }
    }
    const own = await chat({ origin: app, "content-type": "application/json" });
    if (own.body.includes(SECRET)) shown.push("the chat's answer");
    expect(shown).toEqual([]);
    expect((await rawRequest(`${app}/api/model`, { headers: { host: rebound } })).status).toBe(403);
  });
});
