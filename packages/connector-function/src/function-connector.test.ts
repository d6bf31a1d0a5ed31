import { type CallContext, CodemodeError } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionConnector } from "./function-connector.ts";

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
});
