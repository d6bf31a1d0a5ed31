import { describe, expect, it } from "vitest";
import { operationMatcher } from "./match-operation.ts";
import type { OperationSpec } from "./operation-spec.ts";

function operation(method: string, path: string): OperationSpec {
  return {
    name: `${method} ${path}`,
    operationId: undefined,
    method,
    path,
    parameters: [],
    body: undefined,
    description: "",
    inputSchema: { type: "object" },
    outputSchema: undefined,
    tags: [],
    security: undefined,
  };
}

describe("operationMatcher", () => {
  const match = operationMatcher([
    operation("GET", "/repos/{owner}/{repo}"),
    operation("GET", "/repos/{owner}/settings"),
    operation("GET", "/files/{name}.json"),
    operation("DELETE", "/repos/{owner}/{repo}"),
  ]);
  const name = (method: string, path: string) => match(method, path)?.name;

  it("matches templates segment by segment, by method, ignoring the query", () => {
    expect(name("GET", "/repos/acme/api?page=2")).toBe("GET /repos/{owner}/{repo}");
    expect(name("DELETE", "/repos/acme/api")).toBe("DELETE /repos/{owner}/{repo}");
    expect(name("GET", "/files/report.json")).toBe("GET /files/{name}.json");
  });

  it("prefers the template with more literal segments", () => {
    expect(name("GET", "/repos/acme/settings")).toBe("GET /repos/{owner}/settings");
  });

  it("finds nothing for other shapes, empty parameters or other methods", () => {
    expect(name("GET", "/repos/acme")).toBeUndefined();
    expect(name("GET", "/repos/acme/api/extra")).toBeUndefined();
    expect(name("GET", "/repos//api")).toBeUndefined();
    expect(name("GET", "/files/report.xml")).toBeUndefined();
    expect(name("POST", "/repos/acme/api")).toBeUndefined();
  });

  it("matches a path as the URL parser sends it against the document's literal text", () => {
    const exact = operationMatcher([
      operation("GET", "/städte/{id}"),
      operation("GET", "/my files/{name}.txt"),
    ]);
    expect(exact("GET", new URL("https://h/städte/7").pathname)?.path).toBe("/städte/{id}");
    expect(exact("GET", "/st%C3%A4dte/7")?.path).toBe("/städte/{id}");
    expect(exact("GET", "/my%20files/a.txt")?.path).toBe("/my files/{name}.txt");
  });

  it("loosely, finds the operation behind another spelling of its path", () => {
    const loose = operationMatcher(
      [operation("GET", "/repos/{owner}/{repo}"), operation("GET", "/repos/{owner}/settings")],
      { loose: true },
    );
    const found = (path: string) => loose("GET", path)?.name;
    for (const path of [
      "/REPOS/acme/Settings",
      "/repos/acme/settings/",
      "//repos/acme/settings",
      "/repos/acme/%73ettings",
      "/repos/acme/settings;x=1",
      "\\repos\\acme\\settings",
    ]) {
      expect(found(path), path).toBe("GET /repos/{owner}/settings");
    }
    expect(found("/repos/acme/api")).toBe("GET /repos/{owner}/{repo}");
    expect(found("/repos/acme")).toBeUndefined();
  });
});
