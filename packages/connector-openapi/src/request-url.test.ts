import { describe, expect, it } from "vitest";
import { requestUrl } from "./request-url.ts";

const BASE = "https://api.example.com/v1";

describe("requestUrl", () => {
  it("gives the path and query as fetch sends them, from the base path on", () => {
    expect(requestUrl(BASE, "/items/7", ["api_key=k"])).toEqual({
      url: `${BASE}/items/7?api_key=k`,
      origin: "https://api.example.com",
      sent: "/items/7?api_key=k",
    });
    expect(requestUrl(BASE, "/items?page=2", ["api_key=k"])?.sent).toBe("/items?page=2&api_key=k");
    // what the URL parser rewrites is what the server gets, so that is what is matched
    expect(requestUrl(BASE, "/städte/a b")?.sent).toBe("/st%C3%A4dte/a%20b");
    expect(requestUrl(BASE, "/items\\7")?.sent).toBe("/items/7");
    expect(requestUrl(BASE, "/items/7/../8")?.sent).toBe("/items/8");
    expect(requestUrl("https://api.example.com", "/items")?.sent).toBe("/items");
  });

  it("is undefined for a URL with a fragment, or one that leaves the base URL", () => {
    expect(requestUrl(BASE, "/items/secret-42#,/preview")).toBeUndefined();
    expect(requestUrl(BASE, "/items/7#")).toBeUndefined();
    expect(requestUrl(BASE, "/../admin")).toBeUndefined();
    expect(requestUrl(BASE, "@evil.example/x")).toBeUndefined();
    expect(requestUrl(BASE, "x")).toBeUndefined();
  });
});
