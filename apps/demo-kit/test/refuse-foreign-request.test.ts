import { describe, expect, it } from "vitest";
import {
  allowedHostsFrom,
  type RequestOriginPolicy,
  refuseForeignRequest,
} from "../src/refuse-foreign-request.ts";

const APP = "http://localhost:8787";

const page = { clients: "page" } as const;
const anyClient = { clients: "any-client" } as const;
const json = { "content-type": "application/json" };

interface Asked {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  websocket?: boolean;
}

/** What the check says of a request to the app at `path`: the refusal's status, or "through". */
function verdict(path: string, asked: Asked = {}, policy: RequestOriginPolicy = page) {
  const { method = "GET", headers = {}, body, websocket } = asked;
  const request = new Request(`${APP}${path}`, {
    method,
    headers: { ...headers, ...(websocket ? { upgrade: "websocket" } : {}) },
    ...(body === undefined ? {} : { body }),
  });
  return refuseForeignRequest(request, policy)?.status ?? "through";
}

const post = (headers: Record<string, string>): Asked => ({ method: "POST", headers, body: "{}" });

describe("refuseForeignRequest", () => {
  it("serves the loopback names on any port, and the names allowed by the var, and no other Host", () => {
    for (const host of [
      "localhost:8787",
      "127.0.0.1:8787",
      "[::1]:8787",
      "LOCALHOST:9",
      "localhost",
    ]) {
      expect(verdict("/api/pending", { headers: { host } }), host).toBe("through");
    }
    const foreign = [
      "evil.example:8787",
      "localhost.evil.example:8787",
      "127.0.0.2:8787",
      "",
      "a/b",
      "x@localhost",
    ];
    for (const host of foreign) {
      expect(verdict("/api/pending", { headers: { host } }), host).toBe(403);
    }
    const allowedHosts = allowedHostsFrom(" demo.example.com, other.example:8443 ");
    expect(allowedHosts).toEqual(["demo.example.com", "other.example:8443"]);
    const at = (host: string) =>
      verdict("/mcp", { headers: { host } }, { ...anyClient, allowedHosts });
    expect(at("demo.example.com")).toBe("through");
    expect(at("demo.example.com:8443")).toBe("through");
    expect(at("other.example:8443")).toBe("through");
    expect(at("other.example")).toBe(403);
    expect(at("evil.example")).toBe(403);
  });

  it("refuses a foreign Host on every route and method, a WebSocket upgrade too, and says how to allow it", async () => {
    const headers = {
      host: "rebound.example:8787",
      origin: "http://rebound.example:8787",
      ...json,
    };
    for (const policy of [page, anyClient]) {
      expect(verdict("/api/run", { headers }, policy)).toBe(403);
      expect(verdict("/api/run", post(headers), policy)).toBe(403);
      expect(verdict("/api/snippets/x", { method: "DELETE", headers }, policy)).toBe(403);
      expect(verdict("/chat", { headers, websocket: true }, policy)).toBe(403);
    }
    const refused = refuseForeignRequest(
      new Request(`${APP}/api/run`, { headers: { host: "rebound.example" } }),
      page,
    );
    expect(await refused?.text()).toContain("ALLOWED_HOSTS");
  });

  it("takes a change from the app's own origin, as JSON", () => {
    expect(verdict("/api/run", post({ origin: APP, ...json }))).toBe("through");
    expect(
      verdict("/api/run", post({ origin: APP, "content-type": "Application/JSON; charset=utf-8" })),
    ).toBe("through");
    // a same-origin fetch a browser vouches for, without Origin
    expect(verdict("/api/run", post({ "sec-fetch-site": "same-origin", ...json }))).toBe("through");
    expect(verdict("/chat", { headers: { origin: APP }, websocket: true })).toBe("through");
  });

  it("refuses a change from another origin, another port of the same machine too", () => {
    const others = [
      "http://localhost:9999",
      "http://127.0.0.1:8787",
      "https://localhost:8787",
      "null",
      "http://evil.example",
    ];
    for (const origin of others) {
      for (const policy of [page, anyClient]) {
        const what = `${origin} ${policy.clients}`;
        expect(verdict("/api/run", post({ origin, ...json }), policy), what).toBe(403);
        expect(
          verdict("/api/snippets/x", { method: "DELETE", headers: { origin, ...json } }, policy),
          what,
        ).toBe(403);
        expect(verdict("/chat", { headers: { origin }, websocket: true }, policy), what).toBe(403);
      }
    }
    // what a browser says of a cross-site or same-site request, without an Origin
    for (const site of ["cross-site", "same-site", "none"]) {
      expect(verdict("/api/run", post({ "sec-fetch-site": site, ...json }), anyClient), site).toBe(
        403,
      );
    }
  });

  it("refuses a change with neither Origin nor Sec-Fetch-Site on a page's route, and takes it on a route for any client", () => {
    expect(verdict("/mcp", post(json), page)).toBe(403);
    expect(verdict("/mcp", post(json), anyClient)).toBe("through");
    expect(verdict("/chat", { websocket: true }, page)).toBe(403);
  });

  it("refuses a change that is not JSON: text/plain, a form, a multipart form, no content type", () => {
    const types = [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
      undefined,
    ];
    for (const type of types) {
      const headers: Record<string, string> = {
        origin: APP,
        ...(type ? { "content-type": type } : {}),
      };
      for (const policy of [page, anyClient]) {
        expect(
          verdict("/api/run", { method: "POST", headers, body: '{"code":"x"}' }, policy),
          type,
        ).toBe(415);
        expect(verdict("/api/catalog/items/1", { method: "DELETE", headers }, policy), type).toBe(
          415,
        );
      }
    }
  });

  it("lets a read through from anywhere the Host is served (another page cannot read the answer)", () => {
    const headers = { origin: "http://localhost:9999", "sec-fetch-site": "same-site" };
    expect(verdict("/api/executions", { headers })).toBe("through");
    expect(verdict("/api/run", { method: "OPTIONS", headers })).toBe("through");
  });
});
