import { type CallContext, CodemodeError } from "@codemode/core";
import { jsonSchemaToTypeScript } from "@codemode/typegen";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionConnector } from "./function-connector.ts";
import { jsonSchema } from "./json-schema.ts";
import type { StandardSchema } from "./method-schema.ts";

/** The error a promise rejects with. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error as CodemodeError,
  );

const context: CallContext = {
  executionId: "exec_1",
  seq: 0,
  idempotencyKey: "exec_1:0",
  signal: new AbortController().signal,
};

const github = functionConnector({
  name: "github",
  instructions: "GitHub for the acme org.",
  methods: {
    list_pull_requests: {
      description: "List pull requests of a repository.",
      inputSchema: z.object({
        owner: z.string(),
        repo: z.string(),
        state: z.enum(["open", "closed"]).default("open"),
      }),
      execute: async (input, { executionId }) => ({ input, executionId }),
    },
    create_issue: {
      description: "Open an issue.",
      inputSchema: {
        type: "object",
        properties: {
          owner: { type: "string" },
          repo: { type: "string" },
          title: { type: "string", minLength: 1 },
        },
        required: ["owner", "repo", "title"],
      },
      requiresApproval: true,
      execute: async () => ({ number: 7 }),
      revert: async (input, result) => {
        reverted.push({ input, result });
      },
    },
    ask_user: { description: "Ask the person in the chat.", deferred: true },
  },
});
const reverted: unknown[] = [];

describe("functionConnector", () => {
  it("describes its methods with JSON Schema and flags", async () => {
    const methods = await github.methods();
    expect(Object.keys(methods)).toEqual(["list_pull_requests", "create_issue", "ask_user"]);
    expect(methods.list_pull_requests?.inputSchema).toMatchObject({
      type: "object",
      properties: { owner: { type: "string" } },
    });
    expect(methods.create_issue).toMatchObject({
      requiresApproval: true,
      replay: "record",
      revertible: true,
    });
    expect(methods.ask_user).toMatchObject({ deferred: true, revertible: false });
    expect(github.instructions).toBe("GitHub for the acme org.");
  });

  it("validates with Zod, applies defaults and passes the call context", async () => {
    const result = await github.invoke(
      "list_pull_requests",
      { owner: "acme", repo: "web" },
      context,
    );
    expect(result).toEqual({
      input: { owner: "acme", repo: "web", state: "open" },
      executionId: "exec_1",
    });
  });

  it("refuses invalid input with an error that names the field (Zod)", async () => {
    const error = await failure(
      github.invoke("list_pull_requests", { owner: "acme", repo: 5 }, context),
    );
    expect(CodemodeError.isInstance(error)).toBe(true);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(/^Invalid input for github\.list_pull_requests: repo: /);
  });

  it("refuses invalid input with an error that names the field (JSON Schema)", async () => {
    const missing = await failure(
      github.invoke("create_issue", { owner: "acme", repo: "web" }, context),
    );
    expect(missing.code).toBe("INVALID_INPUT");
    expect(missing.message).toContain("title");
    const empty = await failure(
      github.invoke("create_issue", { owner: "acme", repo: "web", title: "" }, context),
    );
    expect(empty.message).toMatch(/title: .*/);
    expect(
      await github.invoke("create_issue", { owner: "acme", repo: "web", title: "Bug" }, context),
    ).toEqual({ number: 7 });
  });

  it("reverts with the input and the result", async () => {
    await github.revert?.(
      "create_issue",
      { owner: "acme", repo: "web", title: "Bug" },
      { number: 7 },
      context,
    );
    expect(reverted).toEqual([
      { input: { owner: "acme", repo: "web", title: "Bug" }, result: { number: 7 } },
    ]);
  });

  it("names an unknown method and refuses to execute a deferred one", async () => {
    await expect(github.invoke("nope", {}, context)).rejects.toMatchObject({
      code: "UNKNOWN_METHOD",
    });
    await expect(github.invoke("toString", {}, context)).rejects.toMatchObject({
      code: "UNKNOWN_METHOD",
    });
    await expect(github.invoke("ask_user", {}, context)).rejects.toThrow(/deferred/);
  });

  it.each<[string, () => unknown, RegExp]>([
    ["no name", () => functionConnector({ name: "", methods: {} }), /needs a name/],
    ["no methods", () => functionConnector({ name: "x" } as never), /needs methods/],
    [
      "no execute",
      () => functionConnector({ name: "x", methods: { a: {} } }),
      /needs an execute function/,
    ],
    [
      "approval with reexecute",
      () =>
        functionConnector({
          name: "x",
          methods: { a: { requiresApproval: true, replay: "reexecute", execute: () => 1 } },
        }),
      /replaying would apply the approved call again/,
    ],
    [
      "deferred with execute",
      () => functionConnector({ name: "x", methods: { a: { deferred: true, execute: () => 1 } } }),
      /no execute/,
    ],
  ])("refuses a bad configuration at once: %s", (_name, make, message) => {
    expect(make).toThrow(message);
    try {
      make();
    } catch (error) {
      expect(CodemodeError.isInstance(error) && error.code).toBe("INVALID_CONFIG");
    }
  });

  it("runs a Standard Schema that is not Zod: its JSON Schema declares, its validate checks", async () => {
    const moved: unknown[] = [];
    // a hand-made Standard Schema with the JSON Schema extension: `{ x }` in, `{ x, y }` out
    const point: StandardSchema<{ x: number }, { x: number; y: number }> & {
      "~standard": { jsonSchema: { input: () => object; output: () => object } };
    } = {
      "~standard": {
        version: 1,
        vendor: "handmade",
        validate: async (value) =>
          typeof (value as { x?: unknown })?.x === "number"
            ? { value: { x: (value as { x: number }).x, y: 0 } }
            : { issues: [{ message: "x must be a number", path: ["x"] }] },
        jsonSchema: {
          input: () => ({ type: "object", properties: { x: { type: "number" } }, required: ["x"] }),
          output: () => ({
            type: "object",
            properties: { x: { type: "number" }, y: { type: "number" } },
            required: ["x", "y"],
          }),
        },
      },
    };
    const geometry = functionConnector({
      name: "geometry",
      methods: {
        move: {
          inputSchema: point,
          outputSchema: point,
          execute: (input) => ({ x: input.x + 1, y: input.y }),
          revert: (input, result) => {
            moved.push({ input, result });
          },
        },
      },
    });
    const { move } = await geometry.methods();
    expect(jsonSchemaToTypeScript("MoveInput", move?.inputSchema)).toBe(
      "type MoveInput = { x: number };",
    );
    expect(jsonSchemaToTypeScript("MoveOutput", move?.outputSchema)).toBe(
      "type MoveOutput = { x: number; y: number };",
    );
    expect(await geometry.invoke("move", { x: 1 }, context)).toEqual({ x: 2, y: 0 });
    const error = await failure(geometry.invoke("move", { x: "1" }, context));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toBe("Invalid input for geometry.move: x: x must be a number");
    await geometry.revert?.("move", { x: 1 }, { x: 2, y: 0 }, context);
    expect(moved).toEqual([{ input: { x: 1, y: 0 }, result: { x: 2, y: 0 } }]);
  });

  it("takes JSON Schema typed with jsonSchema<T>() as it is", async () => {
    const schema = {
      type: "object",
      properties: { title: { type: "string" } },
      required: ["title"],
    };
    const notes = functionConnector({
      name: "notes",
      methods: {
        add: {
          inputSchema: jsonSchema<{ title: string }>(schema),
          execute: (input) => input.title.toUpperCase(),
        },
      },
    });
    expect((await notes.methods()).add?.inputSchema).toBe(schema);
    expect(await notes.invoke("add", { title: "milk" }, context)).toBe("MILK");
    expect((await failure(notes.invoke("add", {}, context))).code).toBe("INVALID_INPUT");
  });

  it("names the first ten issues of an input that fails in many places", async () => {
    const tags = functionConnector({
      name: "tags",
      methods: {
        set: {
          inputSchema: { type: "array", items: { type: "string" } },
          execute: () => null,
        },
      },
    });
    const error = await failure(
      tags.invoke(
        "set",
        Array.from({ length: 30 }, (_, i) => i),
        context,
      ),
    );
    expect(error.message).toMatch(/^Invalid input for tags\.set: 0: .*; 9: [^;]*; and 20 more$/);
    expect(error.details).toMatchObject({ more: 20 });
    expect((error.details as { issues: unknown[] }).issues).toHaveLength(10);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    [
      "an input schema that is not one",
      { inputSchema: 42 },
      /^The inputSchema of method "a" of connector "x" is the number 42, not a schema/,
    ],
    [
      "an output schema that is not one",
      { outputSchema: "string" },
      /^The outputSchema of method "a" of connector "x" is the string "string", not a schema/,
    ],
    [
      "a Standard Schema without JSON Schema",
      { inputSchema: { "~standard": { version: 1, vendor: "v", validate: () => ({ value: 1 }) } } },
      /^The inputSchema of method "a" of connector "x" is a Standard Schema \(vendor "v"\) that offers no JSON Schema/,
    ],
  ])("refuses %s when the connector is made", (_name, schemas, message) => {
    const make = () =>
      functionConnector({ name: "x", methods: { a: { ...schemas, execute: () => 1 } } } as never);
    expect(make).toThrow(message);
    expect(() => make()).toThrow(expect.objectContaining({ code: "INVALID_CONFIG" }));
  });
});
