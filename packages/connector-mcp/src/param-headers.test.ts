import { describe, expect, it } from "vitest";
import { headerSchema, readHeaderParams } from "./param-headers.ts";

const marked = (header: unknown, type: unknown = "string") => ({ type, "x-mcp-header": header });

describe("readHeaderParams (SEP-2243 x-mcp-header marks)", () => {
  it("reads marks on properties reached through properties alone, at any depth", () => {
    expect(
      readHeaderParams({
        type: "object",
        properties: {
          region: marked("Region"),
          count: marked("Count", "integer"),
          options: { type: "object", properties: { dry: marked("Dry-Run", "boolean") } },
          plain: { type: "string" },
        },
      }),
    ).toEqual({
      valid: true,
      params: expect.arrayContaining([
        { path: ["region"], header: "Region", type: "string" },
        { path: ["count"], header: "Count", type: "integer" },
        { path: ["options", "dry"], header: "Dry-Run", type: "boolean" },
      ]),
    });
    expect(readHeaderParams({ type: "object" })).toEqual({ valid: true, params: [] });
    expect(readHeaderParams(undefined)).toEqual({ valid: true, params: [] });
  });

  it.each<[string, unknown]>([
    ["a mark on the root", marked("Root", "object")],
    ["a mark under items", { properties: { list: { type: "array", items: marked("Item") } } }],
    ["a mark under anyOf", { anyOf: [{ properties: { a: marked("A") } }] }],
    ["a mark under $defs", { $defs: { A: { properties: { a: marked("A") } } } }],
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable
    ["a mark under then", { if: {}, then: { properties: { a: marked("A") } } }],
    ["a mark under additionalProperties", { additionalProperties: marked("Extra") }],
    ["a header name with a space", { properties: { a: marked("Bad Name") } }],
    ["an empty header name", { properties: { a: marked("") } }],
    ["a header name that is no string", { properties: { a: marked(7) } }],
    ["a mark on an object", { properties: { a: marked("A", "object") } }],
    ["a mark on a number", { properties: { a: marked("A", "number") } }],
    ["a mark on a type array", { properties: { a: marked("A", ["string", "null"]) } }],
    ["two marks of one name in two cases", { properties: { a: marked("Tag"), b: marked("TAG") } }],
  ])("leaves out a tool with %s", (_name, schema) => {
    expect(readHeaderParams(schema)).toMatchObject({ valid: false });
  });

  // A hang guard, not a timing: at these sizes the linear walk takes a few seconds, while work that
  // grew with the square of the size (minutes at 100,000 levels) could never end within the test's
  // timeout. No clock is read.
  it("reads a hostile schema in linear time, without recursion", () => {
    const SIZE = 300_000;
    // 300,000 levels of properties, a mark at the bottom: too deep to be sent
    let deep: Record<string, unknown> = marked("Deep");
    for (let level = 0; level < SIZE; level++) deep = { type: "object", properties: { p: deep } };
    // 300,000 properties side by side, one marked
    const wide: Record<string, unknown> = {};
    for (let index = 0; index < SIZE; index++) wide[`p${index}`] = { type: "string" };
    wide[`p${SIZE - 1}`] = marked("Last");
    // 300,000 marked properties
    const many: Record<string, unknown> = {};
    for (let index = 0; index < SIZE; index++) many[`p${index}`] = marked(`H${index}`);
    expect(readHeaderParams(deep)).toMatchObject({ valid: false, reason: /deeper than 64/ });
    expect(readHeaderParams({ type: "object", properties: wide })).toEqual({
      valid: true,
      params: [{ path: [`p${SIZE - 1}`], header: "Last", type: "string" }],
    });
    expect(readHeaderParams({ type: "object", properties: many })).toMatchObject({
      valid: false,
      reason: /more than 64/,
    });
  }, 120_000);
});

describe("headerSchema", () => {
  it("is a schema of the marks alone, which reads back as the same marks", () => {
    const params = [
      { path: ["region"], header: "Region", type: "string" },
      { path: ["options", "dry"], header: "Dry", type: "boolean" },
      { path: ["options", "__proto__"], header: "Proto", type: "string" },
    ];
    const schema = headerSchema(params);
    expect(JSON.parse(JSON.stringify(schema))).toEqual({
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        options: {
          type: "object",
          properties: {
            dry: { type: "boolean", "x-mcp-header": "Dry" },
            ["__proto__"]: { type: "string", "x-mcp-header": "Proto" },
          },
        },
      },
    });
    expect(readHeaderParams(schema)).toEqual({
      valid: true,
      params: expect.arrayContaining(params),
    });
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});
