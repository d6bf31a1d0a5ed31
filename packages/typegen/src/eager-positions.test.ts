// Where a reference back to a type alias is resolved at once (see eager-positions.ts); the writer's
// tests (type-writer.test.ts) and the property tests compile what it writes from these answers.
import { describe, expect, it } from "vitest";
import { arrayShape, namesType, reachesEagerly, waits } from "./eager-positions.ts";

describe("arrayShape", () => {
  it("reads a tuple's elements, which are optional past minItems, and what may follow them", () => {
    expect(
      arrayShape({ prefixItems: [{ type: "string" }, { type: "number" }], minItems: 1 }),
    ).toEqual({
      kind: "tuple",
      elements: [
        { schema: { type: "string" }, optional: false },
        { schema: { type: "number" }, optional: true },
      ],
      hidden: 0,
      rest: true,
    });
    expect(arrayShape({ items: [{ type: "string" }], additionalItems: false })).toMatchObject({
      rest: false,
    });
    expect(arrayShape({ prefixItems: [{}], items: { type: "null" } })).toMatchObject({
      rest: { type: "null" },
    });
    expect(arrayShape({ prefixItems: [{}, {}], maxItems: 1 })).toMatchObject({
      elements: [{ schema: {}, optional: true }],
      rest: false,
    });
    expect(arrayShape({ type: "array", items: { type: "string" } })).toEqual({
      kind: "array",
      item: { type: "string" },
    });
  });
});

describe("namesType", () => {
  const root = {
    $defs: { leaf: { type: "string" } },
    properties: { self: { $ref: "#" }, inline: { $ref: "#/properties/plain" }, plain: {} },
  };

  it("is true for a reference the writer names: a definition, or a schema that comes back", () => {
    expect(namesType(root, { $ref: "#/$defs/leaf" })).toBe(true);
    expect(namesType(root, { $ref: "#" })).toBe(true);
  });

  it("is false for a reference inlined, unresolved or with type keywords beside it, and for others", () => {
    expect(namesType(root, { $ref: "#/properties/plain" })).toBe(false);
    expect(namesType(root, { $ref: "#/$defs/missing" })).toBe(false);
    expect(namesType(root, { $ref: "#/$defs/leaf", enum: [] })).toBe(false);
    expect(namesType(root, { type: "string" })).toBe(false);
    expect(namesType(root, true)).toBe(false);
  });
});

describe("waits", () => {
  const root = { $defs: { a: { type: "string" } } };
  const named = { $ref: "#/$defs/a" };

  it("is true where the declaration resolves the tuple or array and an element names a type", () => {
    expect(waits(arrayShape({ prefixItems: [named] }), root, true)).toBe(true);
    expect(waits(arrayShape({ prefixItems: [{ type: "string" }], items: named }), root, true)).toBe(
      true,
    );
    expect(waits(arrayShape({ items: named }), root, true)).toBe(true);
  });

  it("is false inside an optional or rest element, and when no element names a type", () => {
    expect(waits(arrayShape({ prefixItems: [named] }), root, false)).toBe(false);
    expect(waits(arrayShape({ prefixItems: [{ prefixItems: [named] }] }), root, true)).toBe(false);
    expect(waits(arrayShape({ items: { items: named } }), root, true)).toBe(false);
  });
});

describe("reachesEagerly", () => {
  it("follows references, unions and tuples that do not wait, and stops at those that do", () => {
    const root = {
      $defs: {
        // [[Root?]?]: the inner tuple is an optional element, so it does not wait
        nested: { prefixItems: [{ prefixItems: [{ $ref: "#" }] }] },
        // [Root?]: its element names a type, so it waits
        flat: { prefixItems: [{ $ref: "#" }] },
        // { x: Root }: an object literal waits
        object: { properties: { x: { $ref: "#" } } },
      },
    };
    const to = (name: string) => ({ anyOf: [{ $ref: `#/$defs/${name}` }, { type: "null" }] });
    expect(reachesEagerly(root, to("nested"), root, false)).toBe(true);
    expect(reachesEagerly(root, to("flat"), root, false)).toBe(false);
    expect(reachesEagerly(root, to("object"), root, false)).toBe(false);
  });

  it("follows a Record's values only when asked", () => {
    const root: Record<string, unknown> = {};
    root.additionalProperties = { $ref: "#" };
    const map = { additionalProperties: root };
    expect(reachesEagerly(root, map, root, false)).toBe(false);
    expect(reachesEagerly(root, map, root, true)).toBe(true);
  });
});
