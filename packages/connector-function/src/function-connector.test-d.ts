// Type tests: checked by `tsc -p tsconfig.test.json` (the package's typecheck), never run. Each
// `@ts-expect-error` fails the typecheck if the line below it stops being an error.
import type { CallContext } from "@codemode/core";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  type AiSdkSchema,
  type FunctionMethod,
  functionConnector,
  type InferSchema,
  jsonSchema,
  type StandardSchema,
} from "./index.ts";

const issue = z.object({
  repo: z.string(),
  title: z.string(),
  labels: z.array(z.string()).default([]),
});

/** A Standard Schema that is not Zod, as Valibot or ArkType would type one. */
declare const point: StandardSchema<{ x: number; y?: number }, { x: number; y: number }>;

describe("functionConnector types", () => {
  it("types execute's input from a Zod schema: its output, defaults filled in", () => {
    functionConnector({
      name: "github",
      methods: {
        create_issue: {
          inputSchema: issue,
          execute: (input, context) => {
            expectTypeOf(input).toEqualTypeOf<{ repo: string; title: string; labels: string[] }>();
            expectTypeOf(context).toEqualTypeOf<CallContext>();
            // @ts-expect-error the schema has `title`, not `titel`
            input.titel;
            return 1;
          },
        },
        destructured: {
          inputSchema: issue,
          // @ts-expect-error the schema has `title`, not `titel`
          execute: ({ titel }) => titel,
        },
        annotated: {
          inputSchema: issue,
          // @ts-expect-error where the schema gives a type, the function cannot claim another
          execute: (input: { title: string; priority: number }) => input.priority,
        },
      },
    });
  });

  it("types the result from outputSchema, and revert's input and result", () => {
    functionConnector({
      name: "github",
      methods: {
        create_issue: {
          inputSchema: issue,
          outputSchema: z.object({ number: z.number() }),
          execute: async () => ({ number: 7 }),
          revert: (input, result, context) => {
            expectTypeOf(input).toEqualTypeOf<{ repo: string; title: string; labels: string[] }>();
            expectTypeOf(result).toEqualTypeOf<{ number: number }>();
            expectTypeOf(context).toEqualTypeOf<CallContext>();
            // @ts-expect-error the result has `number`, not `id`
            result.id;
          },
        },
        narrowed_result: {
          inputSchema: issue,
          outputSchema: z.object({ number: z.number() }),
          execute: async () => ({ number: 7 }),
          // @ts-expect-error where the schemas give types, revert cannot claim narrower ones
          revert: (_input, _result: { number: 7 }) => {},
        },
        wrong_result: {
          outputSchema: z.object({ number: z.number() }),
          // @ts-expect-error the result must be a `{ number: number }`
          execute: async () => ({ number: "7" }),
        },
      },
    });
  });

  it("types a Standard Schema that is not Zod from its output type", () => {
    functionConnector({
      name: "geometry",
      methods: {
        move: {
          inputSchema: point,
          outputSchema: point,
          execute: (input) => {
            expectTypeOf(input).toEqualTypeOf<{ x: number; y: number }>();
            return input;
          },
          revert: (_input, result) => {
            expectTypeOf(result).toEqualTypeOf<{ x: number; y: number }>();
          },
        },
      },
    });
  });

  it("types JSON Schema as unknown, unless jsonSchema<T>() names the type", () => {
    functionConnector({
      name: "github",
      methods: {
        untyped: {
          inputSchema: { type: "object", properties: { title: { type: "string" } } },
          execute: (input) => {
            expectTypeOf(input).toEqualTypeOf<unknown>();
            // @ts-expect-error JSON Schema alone does not type the input
            input.title;
            return 1;
          },
          revert: (_input, result) => {
            expectTypeOf(result).toEqualTypeOf<unknown>();
          },
        },
        annotated: {
          // where no schema gives a type, the function may declare one itself
          inputSchema: { type: "object", properties: { id: { type: "integer" } } },
          execute: ({ id }: { id: number }) => ({ closed: id }),
          revert: (input: { id: number }, result: { closed: number }) => {
            expectTypeOf(input.id).toEqualTypeOf<number>();
            expectTypeOf(result.closed).toEqualTypeOf<number>();
          },
        },
        typed: {
          inputSchema: jsonSchema<{ title: string }>({
            type: "object",
            properties: { title: { type: "string" } },
            required: ["title"],
          }),
          outputSchema: jsonSchema<{ number: number }>({
            type: "object",
            properties: { number: { type: "integer" } },
          }),
          execute: (input) => {
            expectTypeOf(input).toEqualTypeOf<{ title: string }>();
            // @ts-expect-error the type has `title`, not `titel`
            input.titel;
            return { number: 7 };
          },
          revert: (_input, result) => {
            expectTypeOf(result).toEqualTypeOf<{ number: number }>();
          },
        },
        as_const: {
          inputSchema: { type: "object", required: ["a"] } as const,
          execute: () => 1,
        },
        never_valid: { inputSchema: false, execute: () => 1 },
      },
    });
  });

  it("types the AI SDK's schema object from its type", () => {
    const schema = {} as AiSdkSchema<{ query: string }>;
    functionConnector({
      name: "search",
      methods: {
        find: {
          inputSchema: schema,
          execute: (input) => expectTypeOf(input).toEqualTypeOf<{ query: string }>(),
        },
      },
    });
  });

  it("types methods that give the compiler nothing to infer from as FunctionMethod", () => {
    functionConnector({
      name: "echo",
      methods: {
        take: {
          execute: (input, context) => {
            expectTypeOf(input).toEqualTypeOf<unknown>();
            expectTypeOf(context).toEqualTypeOf<CallContext>();
            // @ts-expect-error no schema, no type
            input.text;
            return input;
          },
        },
      },
    });
  });

  it("types a method without schemas as unknown", () => {
    functionConnector({
      name: "clock",
      methods: {
        now: {
          execute: (input) => {
            expectTypeOf(input).toEqualTypeOf<unknown>();
            return Date.now();
          },
        },
        ask_user: { description: "Ask the person in the chat.", deferred: true },
      },
    });
  });

  it("refuses what is not a schema, and unknown options", () => {
    functionConnector({
      name: "x",
      methods: {
        number: {
          // @ts-expect-error 42 is not a schema
          inputSchema: 42,
          execute: () => 1,
        },
        string: {
          // @ts-expect-error a string is not a schema
          outputSchema: "string",
          execute: () => 1,
        },
        array: {
          // @ts-expect-error an array is not a schema
          inputSchema: [{ type: "string" }],
          execute: () => 1,
        },
        lazy: {
          // @ts-expect-error a function is not a schema (a lazy one is called first)
          inputSchema: () => ({ type: "object" }),
          execute: () => 1,
        },
        typo: {
          inputSchema: issue,
          // @ts-expect-error no such option
          exeucte: () => 1,
        },
      },
    });
  });

  it("takes methods made elsewhere as FunctionMethod", () => {
    const methods: Record<string, FunctionMethod> = {
      echo: { inputSchema: { type: "object" }, execute: (input) => input },
    };
    functionConnector({ name: "tools", methods });
  });

  it("infers as the AI SDK does", () => {
    expectTypeOf<InferSchema<typeof issue>>().toEqualTypeOf<z.output<typeof issue>>();
    expectTypeOf<InferSchema<typeof point>>().toEqualTypeOf<{ x: number; y: number }>();
    expectTypeOf<InferSchema<{ type: "object" }>>().toEqualTypeOf<unknown>();
    expectTypeOf<InferSchema<undefined>>().toEqualTypeOf<unknown>();
  });
});
