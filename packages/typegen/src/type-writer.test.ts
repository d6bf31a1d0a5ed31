import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonSchemaToTypeScript, TypeWriter } from "./type-writer.ts";

const render = (schema: unknown, options: { root?: unknown } = {}) =>
  jsonSchemaToTypeScript("T", schema, options);

describe("jsonSchemaToTypeScript: types", () => {
  it.each<[string, unknown, string]>([
    ["string", { type: "string" }, "type T = string;"],
    ["integer", { type: "integer" }, "type T = number;"],
    ["number", { type: "number" }, "type T = number;"],
    ["boolean", { type: "boolean" }, "type T = boolean;"],
    ["null", { type: "null" }, "type T = null;"],
    ["true schema", true, "type T = unknown;"],
    ["false schema", false, "type T = never;"],
    ["empty schema", {}, "type T = unknown;"],
    ["type array", { type: ["string", "null"] }, "type T = string | null;"],
    ["OpenAPI 3.0 nullable", { type: "integer", nullable: true }, "type T = number | null;"],
    ["Swagger x-nullable", { type: "string", "x-nullable": true }, "type T = string | null;"],
    ["enum", { enum: ["open", "closed", 1, null] }, 'type T = "open" | "closed" | 1 | null;'],
    ["empty enum", { enum: [] }, "type T = never;"],
    ["const", { const: "fixed" }, 'type T = "fixed";'],
    ["object const", { const: { a: [1, "x"] } }, 'type T = {"a":[1,"x"]};'],
    ["array", { type: "array", items: { type: "string" } }, "type T = string[];"],
    [
      "array of union",
      { type: "array", items: { type: ["string", "number"] } },
      "type T = (string | number)[];",
    ],
    ["array without items", { type: "array" }, "type T = unknown[];"],
    [
      // without minItems an element may be missing; without additionalItems more may follow
      "draft-07 tuple",
      { type: "array", items: [{ type: "string" }, { type: "number" }] },
      "type T = [string?, number?, ...unknown[]];",
    ],
    [
      "draft-07 tuple with rest",
      {
        type: "array",
        items: [{ type: "string" }],
        additionalItems: { type: "boolean" },
        minItems: 1,
      },
      "type T = [string, ...boolean[]];",
    ],
    [
      "2020-12 tuple",
      {
        type: "array",
        prefixItems: [{ type: "string" }, { type: "number" }],
        items: false,
        minItems: 2,
      },
      "type T = [string, number];",
    ],
    [
      "2020-12 tuple with optional tail",
      {
        type: "array",
        prefixItems: [{ type: "string" }, { type: "number" }],
        minItems: 1,
        maxItems: 2,
      },
      "type T = [string, number?];",
    ],
    ["open object", { type: "object" }, "type T = Record<string, unknown>;"],
    ["empty closed object", { type: "object", properties: {} }, "type T = {};"],
    [
      "map",
      { type: "object", additionalProperties: { type: "number" } },
      "type T = Record<string, number>;",
    ],
    [
      "patternProperties",
      {
        type: "object",
        patternProperties: { "^x-": { type: "string" }, "^n-": { type: "number" } },
      },
      "type T = Record<string, string | number>;",
    ],
    [
      "properties and additionalProperties",
      {
        type: "object",
        properties: { a: { type: "string" } },
        required: ["a"],
        additionalProperties: { type: "number" },
      },
      "type T = { a: string; [key: string]: number | string };",
    ],
    [
      "required and optional, quoted names",
      {
        type: "object",
        properties: {
          id: { type: "integer" },
          "odd-name": { type: "string" },
          "2x": { type: "boolean" },
        },
        required: ["id"],
      },
      'type T = { id: number; "odd-name"?: string; "2x"?: boolean };',
    ],
    ["inferred object", { properties: { a: { type: "string" } } }, "type T = { a?: string };"],
    ["anyOf", { anyOf: [{ type: "string" }, { type: "number" }] }, "type T = string | number;"],
    ["oneOf", { oneOf: [{ const: "a" }, { const: "b" }] }, 'type T = "a" | "b";'],
    [
      "allOf",
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: { type: "number" } } },
        ],
      },
      "type T = { a?: string } & { b?: number };",
    ],
    [
      "union inside intersection",
      { allOf: [{ anyOf: [{ type: "string" }, { type: "number" }] }, { type: "string" }] },
      "type T = (string | number) & string;",
    ],
    [
      "oneOf that only adds required keys",
      {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        oneOf: [{ required: ["a"] }, { required: ["b"] }],
      },
      "type T = { a?: string; b?: string };",
    ],
    ["unknown type keyword", { type: "file" }, "type T = unknown;"],
  ])("%s", (_name, schema, expected) => {
    expect(render(schema)).toBe(expected);
  });
});

describe("jsonSchemaToTypeScript: references", () => {
  it("names $defs and definitions and declares them once", () => {
    const schema = {
      type: "object",
      properties: {
        a: { $ref: "#/$defs/point" },
        b: { $ref: "#/$defs/point" },
        c: { $ref: "#/definitions/Label" },
      },
      $defs: { point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
      definitions: { Label: { type: "string", description: "A label." } },
    };
    expect(render(schema)).toBe(
      "type Point = { x: number };\n\n/** A label. */\ntype Label = string;\n\ntype T = { a?: Point; b?: Point; c?: Label };",
    );
  });

  it("renders a recursive schema as a named recursive type, not unknown", () => {
    const schema = {
      type: "object",
      properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#" } } },
      required: ["value"],
    };
    expect(render(schema)).toBe("type T = { value: number; children?: T[] };");
  });

  it("names an inline recursive reference", () => {
    const schema = {
      type: "object",
      properties: {
        tree: {
          type: "object",
          properties: { kids: { type: "array", items: { $ref: "#/properties/tree" } } },
        },
      },
    };
    expect(render(schema)).toBe(
      "type TKids = { kids?: TKids[] };\n\ntype T = { tree?: { kids?: TKids[] } };",
    );
  });

  it("resolves OpenAPI components against the document", () => {
    const document = {
      components: {
        schemas: {
          pet: {
            type: "object",
            properties: {
              name: { type: "string" },
              owner: { $ref: "#/components/schemas/person" },
            },
            required: ["name"],
          },
          person: {
            type: "object",
            properties: {
              friends: { type: "array", items: { $ref: "#/components/schemas/person" } },
            },
          },
        },
      },
    };
    const output = render(
      { type: "object", properties: { pet: { $ref: "#/components/schemas/pet" } } },
      { root: document },
    );
    expect(output).toBe(
      "type Pet = { name: string; owner?: Person };\n\ntype Person = { friends?: Person[] };\n\ntype T = { pet?: Pet };",
    );
  });

  it("turns JSON pointer escapes into names", () => {
    const schema = { $ref: "#/$defs/a~1b", $defs: { "a/b": { type: "string" } } };
    expect(render(schema)).toBe("type AB = string;\n\ntype T = AB;");
  });

  it("degrades unresolvable and external references to unknown", () => {
    expect(render({ $ref: "#/$defs/missing" })).toBe("type T = unknown;");
    expect(render({ $ref: "https://example.com/schema.json" })).toBe("type T = unknown;");
    expect(render({ $ref: "#anchor" })).toBe("type T = unknown;");
  });

  // Found by the property tests (typegen.property.test.ts): each of these made declarations the
  // TypeScript compiler rejects, or threw.
  it("never writes a type alias that circularly references itself", () => {
    expect(render({ $ref: "#" })).toBe("type T = unknown;");
    expect(render({ anyOf: [{ $ref: "#" }, { type: "string" }] })).toBe("type T = unknown;");
    expect(
      render({
        $defs: {
          a: { $ref: "#/$defs/b" },
          b: { anyOf: [{ $ref: "#/$defs/a" }, { type: "null" }] },
        },
        $ref: "#/$defs/a",
      }),
    ).toBe("type A = unknown;\n\ntype T = A;");
    // recursion through an object literal, an array or a tuple waits, and stays
    expect(render({ type: "array", items: { $ref: "#" } })).toBe("type T = T[];");
  });

  // TypeScript waits to resolve a tuple or array only where the declaration resolves it and an
  // element names a type; each "unknown" below is where tsc 5.9 said TS2456 when the name stood.
  it("keeps a reference back in a tuple that waits, and writes unknown in one TypeScript resolves at once", () => {
    const self = { $ref: "#" };
    // an element names the type: the tuple waits, optional element or not, in a union or not
    expect(render({ prefixItems: [self] })).toBe("type T = [T?, ...unknown[]];");
    expect(render({ nullable: true, prefixItems: [self] })).toBe(
      "type T = [T?, ...unknown[]] | null;",
    );
    expect(
      render({ nullable: true, prefixItems: [{ prefixItems: [self], minItems: 1 }], minItems: 1 }),
    ).toBe("type T = [[T, ...unknown[]], ...unknown[]] | null;");
    expect(
      render({ nullable: true, type: "array", items: { prefixItems: [self], minItems: 1 } }),
    ).toBe("type T = [T, ...unknown[]][] | null;");
    // inside an optional or rest element of a tuple that names nothing, it is resolved at once
    expect(render({ nullable: true, prefixItems: [{ prefixItems: [self] }] })).toBe(
      "type T = [[unknown?, ...unknown[]]?, ...unknown[]] | null;",
    );
    expect(
      render({ nullable: true, prefixItems: [], items: { prefixItems: [self], minItems: 1 } }),
    ).toBe("type T = [...[unknown, ...unknown[]][]] | null;");
    // two definitions that reach each other that way: one of them degrades
    const pair = (other: string) => ({
      nullable: true,
      prefixItems: [],
      items: { prefixItems: [{ $ref: `#/$defs/${other}` }], minItems: 1 },
    });
    expect(render({ $defs: { a: pair("b"), b: pair("a") }, $ref: "#/$defs/a" })).toBe(
      "type A = [...[unknown, ...unknown[]][]] | null;\n\ntype T = A;",
    );
    // a definition whose array of the other waits keeps both names
    expect(
      render({
        $defs: {
          tree: { anyOf: [{ type: "string" }, { $ref: "#/$defs/branch" }] },
          branch: { type: "array", items: { $ref: "#/$defs/tree" } },
        },
        $ref: "#/$defs/tree",
      }),
    ).toBe("type Tree = string | Branch;\n\ntype Branch = Tree[];\n\ntype T = Tree;");
  });

  it("writes a map of itself as an index signature: Record<string, T> would be circular", () => {
    expect(render({ type: "object", additionalProperties: { $ref: "#" } })).toBe(
      "type T = { [key: string]: T };",
    );
    expect(
      render({
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
        additionalProperties: { anyOf: [{ $ref: "#" }, { type: "null" }] },
      }),
    ).toBe("type T = { name: string; [key: string]: T | null | string };");
    const tree = {
      $defs: { node: { type: "object", patternProperties: { "^x-": { $ref: "#/$defs/node" } } } },
      $ref: "#/$defs/node",
    };
    expect(render(tree)).toBe("type Node2 = { [key: string]: Node2 };\n\ntype T = Node2;");
    // a map of another named type keeps its Record
    const map = {
      $defs: { pet: { type: "object", properties: { id: { type: "string" } } } },
      additionalProperties: { $ref: "#/$defs/pet" },
    };
    expect(render(map)).toBe("type Pet = { id?: string };\n\ntype T = Record<string, Pet>;");
  });

  it("names no definition like the declaration itself", () => {
    const schema = { $defs: { t: { type: "string" } }, properties: { x: { $ref: "#/$defs/t" } } };
    expect(render(schema)).toBe("type T2 = string;\n\ntype T = { x?: T2 };");
  });

  it("degrades a reference with a malformed percent-escape to unknown", () => {
    expect(render({ properties: { a: { $ref: "#/%" } } })).toBe("type T = { a?: unknown };");
    expect(render({ $ref: "#/$defs/%E0%A4%A", $defs: {} })).toBe("type T = unknown;");
  });

  it("shares named types between declarations of one writer and allocates unique names", () => {
    const writer = new TypeWriter();
    const document = { components: { schemas: { Record: { type: "string" } } } };
    const first = writer.declare("A", { $ref: "#/components/schemas/Record" }, { root: document });
    const second = writer.declare("B", { $ref: "#/components/schemas/Record" }, { root: document });
    expect(first.text).toBe("type A = Record2;");
    expect(second.text).toBe("type B = Record2;");
    expect(writer.namedDeclarations([...first.refs, ...second.refs])).toEqual([
      "type Record2 = string;",
    ]);
  });
});

describe("jsonSchemaToTypeScript: JSDoc", () => {
  it("renders descriptions and constraints", () => {
    const output = render({
      type: "object",
      properties: {
        count: { type: "integer", description: "How many.", minimum: 1, maximum: 100, default: 30 },
        name: {
          type: "string",
          minLength: 1,
          maxLength: 64,
          pattern: "^[a-z]+$",
          example: "octocat",
        },
        when: {
          type: "string",
          format: "date-time",
          deprecated: true,
          examples: ["2026-01-01T00:00:00Z"],
        },
        ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
        legacy: { type: "number", minimum: 0, exclusiveMinimum: true },
        tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5 },
      },
    });
    expect(output).toBe(`type T = {
 /**
  * How many.
  * @default 30
  * @minimum 1
  * @maximum 100
  */
 count?: number;
 /**
  * @minLength 1
  * @maxLength 64
  * @pattern ^[a-z]+$
  * @example "octocat"
  */
 name?: string;
 /**
  * @format date-time
  * @deprecated
  * @example "2026-01-01T00:00:00Z"
  */
 when?: string;
 /**
  * @exclusiveMinimum 0
  * @exclusiveMaximum 1
  */
 ratio?: number;
 /** @exclusiveMinimum 0 */
 legacy?: number;
 /**
  * @minItems 1
  * @maxItems 5
  */
 tags?: string[];
};`);
  });

  it("escapes */ so a description cannot end the comment", () => {
    const output = render({
      type: "object",
      properties: { a: { type: "string", description: "ends */ here" } },
    });
    expect(output).toContain("ends *\\/ here");
    expect(output.match(/\*\//g)).toHaveLength(1);
  });

  it("leaves out a default of false, which an absent flag already means", () => {
    const output = render({
      type: "object",
      properties: {
        draft: { type: "boolean", description: "Open as a draft.", default: false },
        notify: { type: "boolean", default: true },
      },
    });
    expect(output).toContain("/** Open as a draft. */\n draft?: boolean;");
    expect(output).toContain("/** @default true */\n notify?: boolean;");
    expect(output).not.toContain("@default false");
  });

  it("documents an inlined reference with the target's description", () => {
    const schema = {
      type: "object",
      properties: {
        a: { $ref: "#/properties/b" },
        b: { type: "string", description: "Shared text." },
      },
    };
    expect(render(schema)).toContain("/** Shared text. */\n a?: string;");
  });
});

describe("jsonSchemaToTypeScript: Zod and Standard Schema", () => {
  it("leaves out the safe-integer bounds Zod writes for .int(), keeping real ones", () => {
    const text = jsonSchemaToTypeScript(
      "Paging",
      z.object({ count: z.number().int(), page: z.number().int().min(1) }),
    );
    expect(text).not.toContain("9007199254740991");
    expect(text).toContain("@minimum 1");
  });

  it("converts Zod 4 through zod's JSON Schema, with recursion and unrepresentable parts", () => {
    const Node: z.ZodType<{ name: string; children?: unknown[] }> = z.object({
      name: z.string().describe("the name"),
      get children() {
        return z.array(Node).optional();
      },
    });
    const schema = z.object({
      title: z.string().min(2).default("x"),
      root: Node,
      when: z.date().optional(),
      pair: z.tuple([z.string(), z.number()]),
      state: z.enum(["open", "closed"]).nullable(),
    });
    const output = render(schema);
    expect(output).toContain("children?: TRoot[];");
    expect(output).toContain("/** the name */");
    expect(output).toContain("title?: string;");
    expect(output).toContain("when?: unknown;");
    expect(output).toContain("pair: [string, number];");
    expect(output).toContain('state: "open" | "closed" | null;');
  });

  it("reads a Standard Schema that offers JSON Schema", () => {
    const schema = {
      "~standard": {
        version: 1,
        vendor: "example",
        validate: (value: unknown) => ({ value }),
        jsonSchema: {
          input: () => ({ type: "object", properties: { q: { type: "string" } }, required: ["q"] }),
          output: () => ({ type: "number" }),
        },
      },
    };
    expect(render(schema)).toBe("type T = { q: string };");
  });

  it("gives unknown for a Standard Schema without JSON Schema, or one whose converter throws", () => {
    expect(
      render({ "~standard": { version: 1, vendor: "x", validate: () => ({ value: 1 }) } }),
    ).toBe("type T = unknown;");
    const throwing = {
      "~standard": {
        version: 1,
        vendor: "x",
        validate: () => ({ value: 1 }),
        jsonSchema: {
          input: () => {
            throw new Error("no");
          },
          output: () => ({}),
        },
      },
    };
    expect(render(throwing)).toBe("type T = unknown;");
  });
});

describe("jsonSchemaToTypeScript: never throws", () => {
  const hostile: unknown[] = [
    null,
    42,
    "string",
    [],
    { type: 42 },
    { properties: null },
    { properties: { a: 7 } },
    { type: "array", items: 3 },
    { anyOf: "nope" },
    { allOf: [null, 1, { type: "string" }] },
    { enum: [undefined, () => 1, Symbol("x"), Number.NaN] },
    { $ref: 5 },
    { $ref: "#/a/b/c/d" },
    { required: "yes", properties: { a: { type: "string" } } },
    {
      get type(): string {
        throw new Error("getter");
      },
    },
  ];
  it.each(hostile.map((schema, index) => [index, schema]))(
    "hostile schema %i degrades to unknown parts",
    (_index, schema) => {
      expect(() => render(schema)).not.toThrow();
      expect(render(schema)).toMatch(/^type T = /);
    },
  );

  it("stops at a depth limit", () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let depth = 0; depth < 100; depth++) schema = { type: "array", items: schema };
    expect(render(schema)).toContain("unknown");
  });
});
