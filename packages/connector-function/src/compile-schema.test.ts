import { CodemodeError } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as zm from "zod/mini";
import * as z3 from "zod/v3";
import { compileSchema } from "./compile-schema.ts";
import { jsonSchema } from "./json-schema.ts";
import type { StandardResult, StandardSchema } from "./method-schema.ts";

const WHERE = 'The inputSchema of method "m" of connector "c"';

/** The INVALID_CONFIG error compiling `schema` throws. */
function refusal(schema: unknown): CodemodeError {
  try {
    compileSchema(schema, "input", WHERE);
  } catch (error) {
    if (CodemodeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected compileSchema to throw");
}

const POINT_JSON = {
  type: "object",
  properties: { x: { type: "number" }, y: { type: "number" } },
  required: ["x"],
};

/**
 * A Standard Schema that is not Zod, written by hand as a library would: `{ x, y? }` in, `{ x, y }`
 * out (y defaults to 0). `async` makes `validate` answer with a promise; `json` adds the Standard
 * JSON Schema extension.
 */
function pointSchema(options: { async?: boolean; json?: boolean }) {
  const check = (value: unknown): StandardResult<{ x: number; y: number }> => {
    const point = value as { x?: unknown; y?: unknown } | null;
    if (typeof point !== "object" || point === null)
      return { issues: [{ message: "not an object" }] };
    if (typeof point.x !== "number")
      return { issues: [{ message: "must be a number", path: ["x"] }] };
    if (point.y !== undefined && typeof point.y !== "number") {
      return { issues: [{ message: "must be a number", path: [{ key: "y" }] }] };
    }
    return { value: { x: point.x, y: point.y ?? 0 } };
  };
  return {
    "~standard": {
      version: 1,
      vendor: "handmade",
      validate: options.async ? async (value: unknown) => check(value) : check,
      ...(options.json
        ? {
            jsonSchema: {
              input: () => POINT_JSON,
              output: () => ({ ...POINT_JSON, required: ["x", "y"] }),
            },
          }
        : {}),
    },
  } satisfies StandardSchema<{ x: number; y?: number }, { x: number; y: number }>;
}

describe("compileSchema", () => {
  it("reads Zod 4: JSON Schema from zod's converter, each side, and zod validates", async () => {
    const schema = z.object({ title: z.string(), labels: z.array(z.string()).default([]) });
    const input = compileSchema(schema, "input", WHERE);
    expect(input.jsonSchema).toMatchObject({
      type: "object",
      properties: { title: { type: "string" }, labels: { type: "array" } },
      required: ["title"],
    });
    expect(compileSchema(schema, "output", WHERE).jsonSchema).toMatchObject({
      required: ["title", "labels"],
    });
    expect(await input.validate({ title: "Bug" })).toEqual({ value: { title: "Bug", labels: [] } });
    expect(await input.validate({ title: 5 })).toEqual({
      issues: [{ path: "title", message: expect.stringContaining("string") }],
    });
  });

  it.each([
    ["synchronous", false],
    ["asynchronous", true],
  ])(
    "validates a Standard Schema that is not Zod through its %s validate",
    async (_kind, async) => {
      const compiled = compileSchema(pointSchema({ async, json: true }), "input", WHERE);
      expect(compiled.jsonSchema).toEqual(POINT_JSON);
      expect(compileSchema(pointSchema({ json: true }), "output", WHERE).jsonSchema).toMatchObject({
        required: ["x", "y"],
      });
      // the value the schema made, not the one that came in
      expect(await compiled.validate({ x: 1 })).toEqual({ value: { x: 1, y: 0 } });
      expect(await compiled.validate({ x: "1" })).toEqual({
        issues: [{ path: "x", message: "must be a number" }],
      });
      expect(await compiled.validate({ x: 1, y: "2" })).toEqual({
        issues: [{ path: "y", message: "must be a number" }],
      });
      expect(await compiled.validate(null)).toEqual({
        issues: [{ path: "", message: "not an object" }],
      });
    },
  );

  it("validates JSON Schema as it is, typed by jsonSchema<T>() or not", async () => {
    const typed = jsonSchema<{ x: number; y?: number }>(POINT_JSON);
    expect(typed).toBe(POINT_JSON);
    for (const schema of [POINT_JSON, typed]) {
      const compiled = compileSchema(schema, "input", WHERE);
      expect(compiled.jsonSchema).toBe(POINT_JSON);
      expect(await compiled.validate({ x: 1 })).toEqual({ value: { x: 1 } });
      expect(await compiled.validate({ y: 1 })).toMatchObject({
        issues: [{ path: "", message: expect.stringContaining("x") }],
      });
    }
    const never = compileSchema(false, "input", WHERE);
    expect(never.jsonSchema).toBe(false);
    expect(await never.validate({})).toMatchObject({ issues: [{ path: "" }] });
    expect(await compileSchema(true, "input", WHERE).validate(7)).toEqual({ value: 7 });
    expect(await compileSchema(undefined, "input", WHERE).validate(7)).toEqual({ value: 7 });
    expect(compileSchema(undefined, "input", WHERE).jsonSchema).toBeUndefined();
  });

  it("validates the AI SDK's schema object against its JSON Schema", async () => {
    const schema = {
      [Symbol.for("vercel.ai.schema")]: true,
      _type: undefined,
      get jsonSchema() {
        return POINT_JSON;
      },
      validate: undefined,
    };
    const compiled = compileSchema(schema, "input", WHERE);
    expect(compiled.jsonSchema).toBe(POINT_JSON);
    expect(await compiled.validate({ x: "1" })).toMatchObject({ issues: [{ path: "x" }] });
    const later = {
      [Symbol.for("vercel.ai.schema")]: true,
      jsonSchema: Promise.resolve(POINT_JSON),
    };
    expect(refusal(later).message).toMatch(/asynchronous one is not supported/);
  });

  it.each<[string, unknown, RegExp]>([
    ["a number", 42, /is the number 42, not a schema: give Zod, a Standard Schema/],
    ["a string", "string", /is the string "string", not a schema/],
    ["null", null, /is null, not a schema/],
    ["an array", [{ type: "string" }], /is an array, not a schema/],
    [
      "a function",
      () => POINT_JSON,
      /is a function \(a lazy schema\? pass the schema it returns\)/,
    ],
    ["a symbol", Symbol("schema"), /is a symbol, not a schema/],
    [
      "a ~standard without validate",
      { "~standard": { version: 1, vendor: "x" } },
      /without a validate function: it is not a Standard Schema/,
    ],
    [
      "a Standard Schema without JSON Schema",
      pointSchema({}),
      /vendor "handmade"\) that offers no JSON Schema, so the model could not be told its type\. Use a library that implements Standard JSON Schema/,
    ],
    [
      "Zod 3",
      z3.object({ title: z3.string() }),
      /vendor "zod"\) that offers no JSON Schema.*Zod 3 has no JSON Schema conversion: use Zod 4/,
    ],
    ["Zod Mini", zm.object({ title: zm.string() }), /without a JSON Schema converter \(Zod Mini\)/],
    [
      "a Standard Schema whose converter throws",
      {
        "~standard": {
          version: 1,
          vendor: "broken",
          validate: () => ({ value: 1 }),
          jsonSchema: {
            input: () => {
              throw new Error("no");
            },
            output: () => ({}),
          },
        },
      },
      /vendor "broken"\) whose conversion to JSON Schema failed/,
    ],
    [
      "a JSON Schema that cannot be checked",
      { $defs: { a: { $id: "urn:a" }, b: { $id: "urn:a" } } },
      /is not a JSON Schema that can be checked: Duplicate schema URI "urn:a"/,
    ],
  ])("refuses %s at once, naming the method", (_name, schema, message) => {
    const error = refusal(schema);
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.message.startsWith(`${WHERE} `)).toBe(true);
    expect(error.message).toMatch(message);
  });
});
