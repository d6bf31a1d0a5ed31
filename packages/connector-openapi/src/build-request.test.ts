import { describe, expect, it } from "vitest";
import { buildRequest, encodeForm } from "./build-request.ts";
import type { OperationSpec, ParameterSpec } from "./operation-spec.ts";

function parameter(
  spec: Partial<ParameterSpec> & Pick<ParameterSpec, "name" | "in">,
): ParameterSpec {
  const style = spec.in === "query" || spec.in === "cookie" ? "form" : "simple";
  return {
    key: spec.name,
    required: false,
    schema: {},
    style,
    explode: style === "form",
    json: false,
    ...spec,
  };
}

function operation(parameters: ParameterSpec[], path = "/items"): OperationSpec {
  return {
    name: "op",
    operationId: "op",
    method: "GET",
    path,
    parameters,
    body: undefined,
    description: "",
    inputSchema: { type: "object" },
    outputSchema: undefined,
    tags: [],
    security: undefined,
  };
}

describe("buildRequest", () => {
  it("fills path parameters in simple, label and matrix style", () => {
    const spec = operation(
      [
        parameter({ name: "a", in: "path" }),
        parameter({ name: "b", in: "path", style: "label" }),
        parameter({ name: "c", in: "path", style: "matrix", explode: true }),
        parameter({ name: "d", in: "path" }),
      ],
      "/x/{a}/{b}/{c}/{d}",
    );
    const request = buildRequest("api", spec, {
      a: ["1", "2"],
      b: ["x y"],
      c: ["p", "q"],
      d: { role: "admin", n: 5 },
    });
    expect(request.path).toBe("/x/1,2/.x%20y/;c=p;c=q/role,admin,n,5");
  });

  it("percent-encodes an object's keys like its values in every path style", () => {
    const styles: Array<Pick<ParameterSpec, "style" | "explode">> = [
      { style: "simple", explode: false },
      { style: "simple", explode: true },
      { style: "label", explode: false },
      { style: "label", explode: true },
      { style: "matrix", explode: false },
      { style: "matrix", explode: true },
    ];
    const paths = styles.map(({ style, explode }) => {
      const spec = operation(
        [parameter({ name: "id", in: "path", style, explode })],
        "/items/{id}/preview",
      );
      return buildRequest("api", spec, { id: { "k#/?%": "v#/?%", n: 1 } }).path;
    });
    expect(paths).toEqual([
      "/items/k%23%2F%3F%25,v%23%2F%3F%25,n,1/preview",
      "/items/k%23%2F%3F%25=v%23%2F%3F%25,n=1/preview",
      "/items/.k%23%2F%3F%25,v%23%2F%3F%25,n,1/preview",
      "/items/.k%23%2F%3F%25=v%23%2F%3F%25.n=1/preview",
      "/items/;id=k%23%2F%3F%25,v%23%2F%3F%25,n,1/preview",
      "/items/;k%23%2F%3F%25=v%23%2F%3F%25;n=1/preview",
    ]);
  });

  it("lists the top-level fields of an object body, whatever its media type", () => {
    const withBody = (contentType: string): OperationSpec => ({
      ...operation([], "/items"),
      method: "POST",
      body: { key: "body", contentType, required: true, schema: undefined, encoding: {} },
    });
    for (const type of [
      "application/json",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
    ]) {
      const request = buildRequest("api", withBody(type), {
        body: { name: "x", _method: "DELETE" },
      });
      expect(request.bodyFields, type).toEqual(["name", "_method"]);
    }
    expect(
      buildRequest("api", withBody("application/json"), { body: ["_method"] }).bodyFields,
    ).toEqual([]);
  });

  it("serializes query parameters by style and explode", () => {
    const spec = operation([
      parameter({ name: "ids", in: "query", style: "pipeDelimited", explode: false }),
      parameter({ name: "tags", in: "query", explode: false }),
      parameter({ name: "filter", in: "query", style: "deepObject", explode: true }),
      parameter({ name: "point", in: "query" }),
      parameter({ name: "where", in: "query", json: true }),
      parameter({ name: "when", in: "query" }),
    ]);
    const request = buildRequest("api", spec, {
      ids: [1, 2],
      tags: ["a", "b"],
      filter: { created: { gte: 10 }, status: "open" },
      point: { x: 1, y: 2 },
      where: { a: 1 },
      when: new Date(0),
    });
    expect(request.query).toEqual([
      "ids=1%7C2",
      "tags=a%2Cb",
      "filter%5Bcreated%5D%5Bgte%5D=10",
      "filter%5Bstatus%5D=open",
      "x=1",
      "y=2",
      "where=%7B%22a%22%3A1%7D",
      "when=1970-01-01T00%3A00%3A00.000Z",
    ]);
  });

  it("sets header and cookie parameters", () => {
    const spec = operation([
      parameter({ name: "X-Trace", in: "header" }),
      parameter({ name: "prefs", in: "cookie", explode: false }),
    ]);
    const request = buildRequest("api", spec, { "X-Trace": ["a", "b"], prefs: ["dark", "wide"] });
    expect(request.headers).toEqual({ "x-trace": "a,b" });
    expect(request.cookies).toEqual(["prefs=dark%2Cwide"]);
  });

  it("encodes forms: repeated names for arrays, brackets for nested values", () => {
    expect(
      encodeForm({ a: "x y", list: [1, 2], nested: { k: [{ v: true }] }, skip: undefined }),
    ).toBe("a=x%20y&list=1&list=2&nested%5Bk%5D%5B0%5D%5Bv%5D=true");
    expect(encodeForm({ list: ["a"] }, { list: { style: "deepObject" } })).toBe("list%5B0%5D=a");
  });
});
