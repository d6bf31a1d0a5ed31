import { describe, expect, it } from "vitest";
import { allowedHostsFrom, refuseForeignRequest } from "../src/refuse-foreign-request.ts";

const APP = "http://localhost:8787";

function request(
  path: string,
  {
    method = "GET",
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Request(`${APP}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
}

const page = { clients: "page" } as const;
const anyClient = { clients: "any-client" } as const;
const json = { "content-type": "application/json" };

/** The status of the refusal, or "through". */
const verdict = (response: Response | undefined) => response?.status ?? "through";

describe("refuseForeignRequest", () => {
  it("serves the loopback names on any port, and the names allowed by the var, and no other Host", () => {
    for (const host of [
      "localhost:8787",
      "127.0.0.1:8787",
      "[::1]:8787",
      "LOCALHOST:9",
      "localhost",
    ]) {
      expect(
        verdict(refuseForeignRequest(request("/api/pending", { headers: { host } }), page)),
      ).toBe("through");
    }
    for (const host of [
      "evil.example:8787",
      "localhost.evil.example:8787",
      "127.0.0.2:8787",
      "",
      "a/b",
      "x@localhost",
    ]) {
      expect(
        verdict(refuseForeignRequest(request("/api/pending", { headers: { host } }), page)),
        host,
      ).toBe(403);
    }
    const allowedHosts = allowedHostsFrom(" demo.example.com, other.example:8443 ");
    expect(allowedHosts).toEqual(["demo.example.com", "other.example:8443"]);
    const at = (host: string) =>
      verdict(
        refuseForeignRequest(request("/mcp", { headers: { host } }), {
          ...anyClient,
          allowedHosts,
        }),
      );
    expect(at("demo.example.com")).toBe("through");
    expect(at("demo.example.com:8443")).toBe("through");
    expect(at("other.example:8443")).toBe("through");
    expect(at("other.example")).toBe(403);
    expect(at("evil.example")).toBe(403);
  });

  it("refuses a foreign Host on every route and method, a WebSocket upgrade too", async () => {
    const headers = {
      host: "rebound.example:8787",
      origin: "http://rebound.example:8787",
      ...json,
    };
    for (const policy of [page, anyClient]) {
      for (const method of ["GET", "POST", "DELETE"]) {
        const refused = refuseForeignRequest(
          request("/api/run", { method, headers, ...(method === "POST" ? { body: "{}" } : {}) }),
          policy,
        );
        expect(refused?.status).toBe(403);
        expect(await refused?.text()).toContain("ALLOWED_HOSTS");
      }
      expect(
        verdict(
          refuseForeignRequest(
            request("/chat", { headers: { ...headers, upgrade: "websocket" } }),
            policy,
          ),
        ),
      ).toBe(403);
    }
  });

  it("takes a change from the app's own origin, as JSON", () => {
    const own = { origin: APP, ...json };
    expect(
      verdict(
        refuseForeignRequest(
          request("/api/run", { method: "POST", headers: own, body: "{}" }),
          page,
        ),
      ),
    ).toBe("through");
    expect(
      verdict(
        refuseForeignRequest(
          request("/api/run", {
            method: "POST",
            headers: { origin: APP, "content-type": "Application/JSON; charset=utf-8" },
            body: "{}",
          }),
          page,
        ),
      ),
    ).toBe("through");
    // a same-origin fetch a browser vouches for, without Origin
    expect(
      verdict(
        refuseForeignRequest(
          request("/api/run", {
            method: "POST",
            headers: { "sec-fetch-site": "same-origin", ...json },
            body: "{}",
          }),
          page,
        ),
      ),
    ).toBe("through");
    expect(
      verdict(
        refuseForeignRequest(
          request("/chat", { headers: { origin: APP, upgrade: "websocket" } }),
          page,
        ),
      ),
    ).toBe("through");
  });

  it("refuses a change from another origin, another port of the same machine too", () => {
    for (const origin of [
      "http://localhost:9999",
      "http://127.0.0.1:8787",
      "https://localhost:8787",
      "null",
      "http://evil.example",
    ]) {
      for (const policy of [page, anyClient]) {
        expect(
          verdict(
            refuseForeignRequest(
              request("/api/run", { method: "POST", headers: { origin, ...json }, body: "{}" }),
              policy,
            ),
          ),
          `${origin} ${policy.clients}`,
        ).toBe(403);
        expect(
          verdict(
            refuseForeignRequest(
              request("/api/snippets/x", { method: "DELETE", headers: { origin, ...json } }),
              policy,
            ),
          ),
        ).toBe(403);
        expect(
          verdict(
            refuseForeignRequest(
              request("/chat", { headers: { origin, upgrade: "websocket" } }),
              policy,
            ),
          ),
        ).toBe(403);
      }
    }
    // what a browser says of a cross-site or same-site request, without an Origin
    for (const site of ["cross-site", "same-site", "none"]) {
      expect(
        verdict(
          refuseForeignRequest(
            request("/api/run", {
              method: "POST",
              headers: { "sec-fetch-site": site, ...json },
              body: "{}",
            }),
            anyClient,
          ),
        ),
      ).toBe(403);
    }
  });

  it("refuses a change with neither Origin nor Sec-Fetch-Site on a page's route, and takes it on a route for any client", () => {
    const post = () => request("/mcp", { method: "POST", headers: json, body: "{}" });
    expect(verdict(refuseForeignRequest(post(), page))).toBe(403);
    expect(verdict(refuseForeignRequest(post(), anyClient))).toBe("through");
    expect(
      verdict(refuseForeignRequest(request("/chat", { headers: { upgrade: "websocket" } }), page)),
    ).toBe(403);
  });

  it("refuses a change that is not JSON: text/plain, a form, a multipart form, no content type", () => {
    for (const type of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
      undefined,
    ]) {
      for (const policy of [page, anyClient]) {
        const headers: Record<string, string> = {
          origin: APP,
          ...(type ? { "content-type": type } : {}),
        };
        expect(
          verdict(
            refuseForeignRequest(
              request("/api/run", { method: "POST", headers, body: '{"code":"x"}' }),
              policy,
            ),
          ),
          `${type}`,
        ).toBe(415);
        expect(
          verdict(
            refuseForeignRequest(
              request("/api/catalog/items/1", { method: "DELETE", headers }),
              policy,
            ),
          ),
        ).toBe(415);
      }
    }
  });

  it("lets a read through from anywhere the Host is served (another page cannot read the answer)", () => {
    const headers = { origin: "http://localhost:9999", "sec-fetch-site": "same-site" };
    expect(verdict(refuseForeignRequest(request("/api/executions", { headers }), page))).toBe(
      "through",
    );
    expect(
      verdict(refuseForeignRequest(request("/api/run", { method: "OPTIONS", headers }), page)),
    ).toBe("through");
  });
});
