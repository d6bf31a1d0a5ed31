// JSON Schema 2020-12 (and the draft-07 and 2019-09 spellings beside it) as TypeScript: each
// keyword's rendering, and that the type admits every value the schema does — checked by compiling
// the declaration with values valid under the schema — so what the model reads is never narrower
// than what a server accepts or answers. Hostile schemas stay bounded.
// biome-ignore-all lint/suspicious/noThenProperty: `then` here is the JSON Schema keyword, in data
import { describe, expect, it } from "vitest";
import { createProgram, formatDiagnostic } from "../test/typescript.ts";
import { METADATA_LIMITS } from "./metadata-limits.ts";
import { jsonSchemaToTypeScript } from "./type-writer.ts";

const render = (schema: unknown) => jsonSchemaToTypeScript("T", schema);

/**
 * The declaration of `schema` compiles, and each value (valid under the schema) is a `T`: passed to
 * `admit<X extends T>(value: X)`, so an object literal is checked structurally, as data, not for
 * excess properties, and its literals keep their literal types.
 */
function expectAdmits(schema: unknown, values: readonly unknown[]): void {
  const lines = [
    render(schema),
    "declare function admit<X extends T>(value: X): void;",
    ...values.map((value) => `admit(${JSON.stringify(value)});`),
  ];
  const { program, file } = createProgram(lines.join("\n"), "admits.ts");
  const problems = [
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
  ].map(formatDiagnostic);
  expect(problems, lines.join("\n")).toEqual([]);
}

/** The same, for values the schema refuses and the type should refuse too. */
function expectRefuses(schema: unknown, value: unknown): void {
  const text = `${render(schema)}\ndeclare function admit<X extends T>(value: X): void;\nadmit(${JSON.stringify(value)});`;
  const { program, file } = createProgram(text, "refuses.ts");
  expect(program.getSemanticDiagnostics(file).length, text).toBeGreaterThan(0);
}

describe("$defs, definitions and $ref", () => {
  const schema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: {
      address: {
        $anchor: "addressDef",
        type: "object",
        properties: { street: { type: "string" }, city: { type: "string" } },
      },
    },
    definitions: { Label: { type: "string" } },
    properties: {
      home: { $ref: "#/$defs/address" },
      work: { $ref: "#addressDef" },
      label: { $ref: "#/definitions/Label" },
    },
  };

  it("names a definition once, whether a pointer or its $anchor refers to it", () => {
    expect(render(schema)).toBe(
      "type Address = { street?: string; city?: string };\n\ntype Label = string;\n\ntype T = { home?: Address; work?: Address; label?: Label };",
    );
    expectAdmits(schema, [{}, { home: { city: "Oslo" }, work: { street: "Main" }, label: "x" }]);
  });

  it("renders a recursive definition as a recursive named type", () => {
    const tree = {
      $defs: {
        node: {
          type: "object",
          properties: {
            value: { type: "number" },
            children: { type: "array", items: { $ref: "#/$defs/node" } },
          },
          required: ["value"],
        },
      },
      $ref: "#/$defs/node",
    };
    // "Node" is a name of the DOM's: taken
    expect(render(tree)).toBe(
      "type Node2 = { value: number; children?: Node2[] };\n\ntype T = Node2;",
    );
    expectAdmits(tree, [{ value: 1, children: [{ value: 2, children: [] }] }]);
  });

  it("follows $dynamicRef to its $dynamicAnchor, recursion included", () => {
    const list = {
      $dynamicAnchor: "item",
      type: "object",
      properties: { next: { $dynamicRef: "#item" }, label: { type: "string" } },
    };
    expect(render(list)).toBe("type T = { next?: T; label?: string };");
    expectAdmits(list, [{ label: "a", next: { label: "b", next: {} } }]);
  });

  it("keeps the keywords beside a $ref: the value has both", () => {
    const schema = {
      $defs: { named: { type: "object", properties: { name: { type: "string" } } } },
      $ref: "#/$defs/named",
      properties: { age: { type: "integer" } },
      required: ["age"],
    };
    expect(render(schema)).toBe(
      "type Named = { name?: string };\n\ntype T = Named & { age: number };",
    );
    expectAdmits(schema, [{ age: 3 }, { age: 3, name: "Rex" }]);
  });

  it("never fetches a reference outside the document: it is unknown", () => {
    const schema = {
      type: "object",
      properties: {
        remote: { $ref: "https://example.com/schemas/thing.json" },
        relative: { $ref: "thing.json#/$defs/x" },
        missing: { $ref: "#/$defs/none" },
        anchorless: { $ref: "#nowhere" },
      },
    };
    expect(render(schema)).toBe(
      [
        "type T = {",
        " remote?: unknown;",
        " relative?: unknown;",
        " missing?: unknown;",
        " anchorless?: unknown;",
        "};",
      ].join("\n"),
    );
  });
});

describe("composition and literals", () => {
  it.each<[string, unknown, string, unknown[]]>([
    [
      "allOf of objects",
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          { type: "object", properties: { b: { type: "number" } } },
        ],
      },
      "type T = { a: string } & { b?: number };",
      [{ a: "x" }, { a: "x", b: 1 }],
    ],
    [
      "anyOf beside properties",
      {
        type: "object",
        properties: { kind: { type: "string" } },
        anyOf: [
          { properties: { size: { type: "integer" } } },
          { properties: { color: { enum: ["red", "blue"] } } },
        ],
      },
      'type T = { kind?: string } & ({ size?: number } | { color?: "red" | "blue" });',
      [{ kind: "k", size: 2 }, { color: "red" }],
    ],
    [
      "oneOf of consts",
      { oneOf: [{ const: "a" }, { const: 2 }, { const: null }] },
      'type T = "a" | 2 | null;',
      ["a", 2, null],
    ],
    ["const beside a type", { type: "string", const: "only" }, 'type T = "only";', ["only"]],
    [
      "enum of mixed values",
      { enum: ["x", 1, true, null] },
      'type T = "x" | 1 | true | null;',
      ["x", true],
    ],
  ])("%s", (_name, schema, expected, values) => {
    expect(render(schema)).toBe(expected);
    expectAdmits(schema, values);
  });
});

describe("type arrays", () => {
  it.each<[string, unknown, string, unknown[]]>([
    [
      "scalars",
      { type: ["string", "integer", "null"] },
      "type T = string | number | null;",
      ["a", 1, null],
    ],
    [
      "an object or null",
      { type: ["object", "null"], properties: { a: { type: "boolean" } } },
      "type T = { a?: boolean } | null;",
      [null, {}, { a: true }],
    ],
    [
      "an array or a string",
      { type: ["array", "string"], items: { type: "number" } },
      "type T = number[] | string;",
      [[1, 2], "x"],
    ],
  ])("%s", (_name, schema, expected, values) => {
    expect(render(schema)).toBe(expected);
    expectAdmits(schema, values);
  });
});

describe("prefixItems and the items after them", () => {
  it.each<[string, unknown, string, unknown[]]>([
    [
      "closed by items: false",
      {
        type: "array",
        prefixItems: [{ type: "string" }, { type: "number" }],
        items: false,
        minItems: 2,
      },
      "type T = [string, number];",
      [["a", 1]],
    ],
    [
      "followed by items",
      { type: "array", prefixItems: [{ type: "string" }], items: { type: "boolean" }, minItems: 1 },
      "type T = [string, ...boolean[]];",
      [["a"], ["a", true, false]],
    ],
    [
      "open: nothing said after them, nothing said of the length",
      { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
      "type T = [string?, number?, ...unknown[]];",
      [[], ["a"], ["a", 1, { x: 1 }]],
    ],
    [
      "closed by unevaluatedItems: false",
      { type: "array", prefixItems: [{ type: "string" }], unevaluatedItems: false },
      "type T = [string?];",
      [[], ["a"]],
    ],
    [
      "cut by maxItems",
      {
        type: "array",
        prefixItems: [{ type: "string" }, { type: "number" }, { type: "null" }],
        minItems: 1,
        maxItems: 2,
      },
      "type T = [string, number?];",
      [["a"], ["a", 2]],
    ],
  ])("%s", (_name, schema, expected, values) => {
    expect(render(schema)).toBe(expected);
    expectAdmits(schema, values);
  });

  it("refuses what a closed tuple refuses", () => {
    const schema = { type: "array", prefixItems: [{ type: "string" }], items: false, minItems: 1 };
    expectRefuses(schema, ["a", "b"]);
    expectRefuses(schema, [1]);
  });
});

describe("if, then and else", () => {
  /** The shape of the official conformance suite's 2020-12 fixture, with types in its branches. */
  const contact = {
    type: "object",
    properties: {
      contactMethod: { type: "string", enum: ["phone", "email"] },
      phone: { type: "string" },
      email: { type: "string" },
    },
    if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
    then: { properties: { phone: { type: "string" } }, required: ["phone"] },
    else: { properties: { email: { type: "string" } }, required: ["email"] },
    additionalProperties: false,
  };

  it("with both branches: the base and (if and then) or else", () => {
    expect(render(contact)).toBe(
      // `&` binds before `|`: (if and then) or else
      'type T = { contactMethod?: "phone" | "email"; phone?: string; email?: string } & ({ contactMethod: "phone" } & { phone: string } | { email: string });',
    );
    expectAdmits(contact, [
      { contactMethod: "phone", phone: "+47" },
      { contactMethod: "email", email: "a@b.c" },
      { email: "a@b.c" },
    ]);
  });

  it("with else alone: if or else; with then alone: the base only", () => {
    const onlyElse = {
      type: "object",
      if: { properties: { a: { const: 1 } }, required: ["a"] },
      else: { properties: { b: { type: "string" } } },
    };
    expect(render(onlyElse)).toBe(
      "type T = Record<string, unknown> & ({ a: 1 } | { b?: string });",
    );
    expectAdmits(onlyElse, [{ a: 1 }, { b: "x" }, {}]);
    const onlyThen = { type: "string", if: { maxLength: 2 }, then: { const: "ok" } };
    expect(render(onlyThen)).toBe("type T = string;");
    expectAdmits(onlyThen, ["ok", "long string"]);
  });

  it("branches that only require keys change nothing (the properties stay as they are)", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" } },
      if: { required: ["a"] },
      then: { required: ["b"] },
      else: { required: ["a"] },
    };
    expect(render(schema)).toBe("type T = { a?: string; b?: string };");
  });
});

describe("additionalProperties, unevaluatedProperties, dependentRequired", () => {
  it.each<[string, unknown, string, unknown[]]>([
    [
      "properties and other keys of another type",
      {
        type: "object",
        properties: { id: { type: "integer" } },
        required: ["id"],
        additionalProperties: { type: "string" },
      },
      "type T = { id: number; [key: string]: string | number };",
      [{ id: 1 }, { id: 1, note: "x" }],
    ],
    [
      "properties whose types are long: other keys are unknown",
      {
        type: "object",
        properties: {
          nested: {
            type: "object",
            properties: {
              first: { type: "string" },
              second: { type: "string" },
              third: { type: "string" },
              fourth: { type: "string" },
            },
          },
        },
        additionalProperties: { type: "number" },
      },
      [
        "type T = {",
        " nested?: { first?: string; second?: string; third?: string; fourth?: string };",
        " [key: string]: unknown;",
        "};",
      ].join("\n"),
      [{ nested: { first: "a" }, other: 1 }],
    ],
    [
      "unevaluatedProperties: false closes an object as additionalProperties does",
      { type: "object", unevaluatedProperties: false },
      "type T = {};",
      [{}],
    ],
    [
      "unevaluatedProperties as the type of other keys",
      {
        type: "object",
        properties: { a: { type: "boolean" } },
        unevaluatedProperties: { type: "boolean" },
      },
      // an optional property may be absent: TypeScript wants `undefined` in the index type too
      "type T = { a?: boolean; [key: string]: boolean | undefined };",
      [{ a: true, b: false }],
    ],
    [
      "unevaluatedProperties beside allOf: its parts evaluate their own keys, so it says nothing more",
      {
        allOf: [{ type: "object", properties: { a: { type: "string" } } }],
        properties: { b: { type: "number" } },
        unevaluatedProperties: { type: "boolean" },
      },
      "type T = { b?: number } & { a?: string };",
      [{ a: "x", b: 1, c: true }],
    ],
  ])("%s", (_name, schema, expected, values) => {
    expect(render(schema)).toBe(expected);
    expectAdmits(schema, values);
  });

  it("says which keys a property makes required (dependentRequired, draft-07 dependencies)", () => {
    const schema = {
      type: "object",
      properties: {
        card: { type: "string" },
        billing: { type: "string" },
        cvc: { type: "string" },
        name: { type: "string" },
      },
      dependentRequired: { card: ["billing", "cvc"] },
      dependencies: { name: ["card"], cvc: { properties: { card: { type: "string" } } } },
    };
    expect(render(schema)).toBe(
      [
        "type T = {",
        " /** @dependentRequired billing, cvc */",
        " card?: string;",
        " billing?: string;",
        " cvc?: string;",
        " /** @dependentRequired card */",
        " name?: string;",
        "};",
      ].join("\n"),
    );
    expectAdmits(schema, [{}, { card: "4", billing: "x", cvc: "1" }]);
  });
});

/**
 * `schema` with every object in it behind a proxy that counts the reads of its keys (`get`, `has`,
 * `getOwnPropertyDescriptor`, `ownKeys`) into `counts`, by key: the work a renderer does, counted
 * instead of timed (a loaded machine changes the time, never the count).
 */
function counted(schema: unknown, counts: Map<string, number>): unknown {
  const count = (key: string | symbol) => {
    const name = String(key);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  };
  const wrapped = new WeakMap<object, object>();
  const wrap = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    const known = wrapped.get(value);
    if (known) return known;
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        count(key);
        return wrap(Reflect.get(target, key, receiver));
      },
      has(target, key) {
        count(key);
        return Reflect.has(target, key);
      },
      getOwnPropertyDescriptor(target, key) {
        count(key);
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
      ownKeys(target) {
        count("(keys)");
        return Reflect.ownKeys(target);
      },
    });
    wrapped.set(value, proxy);
    return proxy;
  };
  return wrap(schema);
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

// Linear work is counted (reads of the schema's keys, through a proxy), not timed: quadratic work
// would read each level or each anchor again for every other one.
describe("hostile schemas stay bounded", () => {
  it("renders 50,000 nested conditions in linear time, cut at the depth limit", () => {
    // as JSON sends them: a tree, each level new (shared subschemas would be no JSON text)
    let schema: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 50_000; level++) {
      schema =
        level % 2 === 0
          ? { if: schema, then: { type: "string" }, else: { type: "number" } }
          : { if: { type: "string" }, then: { type: "string" }, else: schema };
    }
    const counts = new Map<string, number>();
    const text = render(counted(schema, counts));
    expect(text.length).toBeLessThan(100_000);
    // cut at the depth limit: about 1,600 reads here; a walk of all 50,000 levels may read each a
    // few times (under 20), while one that walked the levels below each level again would not
    expect(counts.get("if")).toBeGreaterThan(0);
    expect(total(counts)).toBeLessThan(50_000 * 20);
  }, 120_000);

  it("indexes 100,000 anchors once, and a 100,000-name dependentRequired is cut", () => {
    const defs: Record<string, unknown> = {};
    for (let index = 0; index < 100_000; index++) {
      defs[`d${index}`] = { $anchor: `a${index}`, type: "integer" };
    }
    const names = Array.from({ length: 100_000 }, (_, index) => `p${index}`);
    const schema = {
      $defs: defs,
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: 200 }, (_, index) => [`x${index}`, { $ref: `#a${index * 400}` }]),
      ),
      dependentRequired: { x0: names },
    };
    const counts = new Map<string, number>();
    const text = render(counted(schema, counts));
    // indexed once: each of the 100,000 anchors is read a few times in all (3 here), not once per
    // $ref (200 refs: 20,000,000 reads)
    expect(counts.get("$anchor")).toBeGreaterThanOrEqual(100_000);
    expect(counts.get("$anchor")).toBeLessThan(100_000 * 10);
    expect(total(counts)).toBeLessThan(100_000 * 100);
    expect(text).toContain("type D0 = number;");
    expect(text).toContain("x199?: D79600;");
    const line = text.split("\n").find((candidate) => candidate.includes("@dependentRequired"));
    expect(line?.length).toBeLessThan(METADATA_LIMITS.tagLength + 100);
    expect(line).toMatch(/more characters/);
  }, 120_000);

  it("keeps a tuple of a million elements to the member limit", () => {
    const schema = {
      type: "array",
      prefixItems: Array.from({ length: 1_000_000 }, () => ({ type: "string" })),
    };
    const text = render(schema);
    expect(text).toContain(
      `...unknown[] /* … and ${1_000_000 - METADATA_LIMITS.schemaMembers} more elements */`,
    );
  });
});
