import { describe, expect, it, vi } from "vitest";
import type { Connector } from "../../connector.ts";
import type { HostFunction } from "../../executor.ts";
import { memoryStore } from "../../memory-store.ts";
import {
  DEFAULT_MAX_LOOKUPS,
  DEFAULT_MAX_SNIPPET_RUNS,
  PRELUDE_CHANNEL,
} from "../../sandbox-protocol.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { runningRun, testContext, testPass } from "../../test/run-context.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { hostGlobals } from "./host-globals.ts";
import { saveSnippet } from "./snippets.ts";

describe("hostGlobals", () => {
  it("gives the program each connector's methods and the codemode SDK; a call is numbered, recorded and told to the observer", async () => {
    const shop = mockConnector({
      name: "shop",
      methods: {
        read: {},
        fail: {
          execute: () => {
            throw new Error("out of stock");
          },
        },
      },
    });
    const context = testContext([shop]);
    const id = await runningRun(context);
    const pass = await testPass(context, id);
    const config = await context.configurator.configure();
    const heard: unknown[] = [];
    const globals = hostGlobals(context, pass, config, (call) => {
      heard.push(call);
      throw new Error("an observer only watches");
    });
    expect(Object.keys(globals).sort()).toEqual(["codemode", "shop"]);
    expect(Object.keys(globals.shop ?? {}).sort()).toEqual(["fail", "read"]);
    expect(Object.keys(globals.codemode ?? {}).sort()).toEqual(
      ["describe", "search", ...Object.values(PRELUDE_CHANNEL)].sort(),
    );
    expect(await globals.shop?.read?.({ sku: 1 })).toEqual({ sku: 1 });
    await expect(globals.shop?.fail?.({})).rejects.toThrow("out of stock");
    expect(shop.calls).toMatchObject([
      { method: "read", seq: 0, idempotencyKey: `${id}:0` },
      { method: "fail", seq: 1, idempotencyKey: `${id}:1` },
    ]);
    expect((await context.journal.listEntries(id)).map((entry) => entry.state)).toEqual([
      "applied",
      "applied",
    ]);
    await pass.end();
    expect(heard).toEqual([
      { connector: "shop", method: "read", failed: false },
      { connector: "shop", method: "fail", failed: true },
    ]);
    expect(await globals.codemode?.describe?.("shop.read")).toMatchObject({ path: "shop.read" });
    pass.release();
  });

  it("keeps an empty namespace for a connector that could not list, and bounds what the SDK takes", async () => {
    const down: Connector = {
      ...mockConnector({ name: "down", methods: {} }),
      methods: async () => {
        throw new Error("server down");
      },
    };
    const context = testContext([down]);
    const id = await runningRun(context);
    const pass = await testPass(context, id);
    const globals = hostGlobals(context, pass, await context.configurator.configure());
    expect(globals.down).toEqual({});
    expect(await globals.codemode?.describe?.("down")).toMatchObject({
      description: expect.stringContaining("could not be loaded now (server down)"),
    });
    await expect(async () => globals.codemode?.search?.("q".repeat(5_000))).rejects.toMatchObject({
      code: "TOO_LARGE",
    });
    await pass.end();
    pass.release();
  });
});

describe("hostGlobals: the SDK's budget per pass", () => {
  const notes = () => mockConnector({ name: "notes", methods: { add: {} } });

  it("serves codemode.run 16 snippet lookups per pass, reading the saved program once, and refuses the 17th with BUDGET_EXCEEDED; a new pass counts again", async () => {
    const context = testContext([notes()]);
    const id = await runningRun(context);
    await saveSnippet(context, "again", { executionId: id });
    const reads = vi.spyOn(context.journal, "getSnippet");
    const lookups = async () => {
      const pass = await testPass(context, id);
      const globals = hostGlobals(context, pass, await context.configurator.configure());
      const lookup = globals.codemode?.[PRELUDE_CHANNEL.snippet] as (
        input: unknown,
      ) => Promise<unknown>;
      const outcomes: unknown[] = [];
      for (let index = 0; index < 21; index++) {
        // the last asks for another saved program: refused before the journal is read
        outcomes.push(
          await lookup({ name: index < 20 ? "again" : "other" }).then(
            (reply) => reply,
            (error: { code?: string; message?: string }) => ({
              code: error.code,
              message: error.message,
            }),
          ),
        );
      }
      await pass.end();
      pass.release();
      return outcomes;
    };
    const refused = {
      code: "BUDGET_EXCEEDED",
      message: expect.stringContaining(
        `A run may start ${DEFAULT_MAX_SNIPPET_RUNS} saved programs (codemode.run) at most`,
      ),
    };
    const expected = [
      ...Array.from({ length: 16 }, () => ({ code: "async () => null" })),
      ...Array.from({ length: 5 }, () => refused),
    ];
    expect(await lookups()).toEqual(expected);
    // the saved program is read (and parsed) once per pass however often it runs
    expect(reads).toHaveBeenCalledTimes(1);
    // the count is the pass's: the next pass of the same program is refused at the same run
    expect(await lookups()).toEqual(expected);
    expect(reads).toHaveBeenCalledTimes(2);
    expect(DEFAULT_MAX_SNIPPET_RUNS).toBe(16);
  });

  it("counts search, describe and snippet lookups against maxLookups per pass, refusing past it before any host work", async () => {
    const context = testContext([notes()], { maxLookups: 5 });
    const id = await runningRun(context);
    await saveSnippet(context, "again", { executionId: id });
    const lists = vi.spyOn(context.journal, "listSnippets");
    const reads = vi.spyOn(context.journal, "getSnippet");
    const pass = await testPass(context, id);
    const globals = hostGlobals(context, pass, await context.configurator.configure());
    const sdk = globals.codemode as Record<string, (input: unknown) => Promise<unknown>>;
    const asked = [
      () => sdk.search?.("add a note"),
      () => sdk.describe?.("notes.add"),
      () => sdk[PRELUDE_CHANNEL.snippet]?.({ name: "again" }),
      () => sdk.search?.("notes"),
      () => sdk.describe?.("again"),
      () => sdk.search?.("one too many"),
      () => sdk.describe?.("notes"),
      () => sdk[PRELUDE_CHANNEL.snippet]?.({ name: "again" }),
    ];
    const codes: unknown[] = [];
    for (const ask of asked)
      codes.push(
        await (ask() as Promise<unknown>).then(
          () => "ok",
          (error) => error.code,
        ),
      );
    expect(codes).toEqual(["ok", "ok", "ok", "ok", "ok", ...Array(3).fill("BUDGET_EXCEEDED")]);
    // two searches and two describes listed the snippets, one run read one: nothing after the fifth
    expect(lists).toHaveBeenCalledTimes(4);
    expect(reads).toHaveBeenCalledTimes(1);
    await expect(sdk.search?.("again")).rejects.toThrow(
      "This run asked codemode.search, codemode.describe and codemode.run more than 5 times",
    );
    expect(DEFAULT_MAX_LOOKUPS).toBe(256);
    await pass.end();
    pass.release();
  });

  it("embeds each item once across a pass's searches: a search embeds only its query and items not seen before", async () => {
    const embedded: string[][] = [];
    const embed = async (texts: string[]) => {
      embedded.push(texts);
      return texts.map((text) => [text.length % 7, 1]);
    };
    const methods = Object.fromEntries(
      Array.from({ length: 50 }, (_, index) => [
        `m${index}`,
        { description: `Does thing ${index}.` },
      ]),
    );
    const context = testContext([mockConnector({ name: "tools", methods })], {
      search: { embed },
    });
    const id = await runningRun(context);
    await saveSnippet(context, "first", { executionId: id, description: "A saved program." });
    const pass = await testPass(context, id);
    const globals = hostGlobals(context, pass, await context.configurator.configure());
    const search = globals.codemode?.search as (query: string) => Promise<unknown>;
    await Promise.all(Array.from({ length: 40 }, (_, index) => search(`thing ${index}`)));
    for (let index = 0; index < 10; index++) await search(`again ${index}`);
    await saveSnippet(context, "second", { executionId: id, description: "Another one." });
    await search("after a save");
    await pass.end();
    pass.release();
    const texts = embedded.flat();
    // 50 methods and the first snippet once, each of 51 queries once, the new snippet once
    expect(texts.filter((text) => text.startsWith("tools "))).toHaveLength(50);
    expect(texts.filter((text) => text.startsWith("first"))).toEqual(["first: A saved program."]);
    expect(texts.filter((text) => text.startsWith("second"))).toEqual(["second: Another one."]);
    expect(texts).toHaveLength(50 + 1 + 51 + 1);
    expect(embedded.length).toBeLessThanOrEqual(51 + 3);
  });
});

describe("the SDK's budget across the passes of a run", () => {
  it("refuses at the same run and the same search on the approval pass as on the first", async () => {
    const shop = mockConnector({
      name: "shop",
      methods: { read: {}, write: { requiresApproval: true } },
    });
    const refusals: unknown[] = [];
    const executor = new MockExecutor(async ({ shop }, request) => {
      const lookup = request.globals.codemode?.[PRELUDE_CHANNEL.snippet] as HostFunction;
      const search = request.globals.codemode?.search as HostFunction;
      const firstRefused = async (ask: () => Promise<unknown>) => {
        for (let index = 0; index < 40; index++) {
          try {
            await ask();
          } catch (error) {
            if ((error as { code?: string }).code === "BUDGET_EXCEEDED") return index;
            throw error;
          }
        }
        return -1;
      };
      const runs = await firstRefused(() => lookup({ name: "read" }));
      const searches = await firstRefused(() => search("read"));
      refusals.push({ runs, searches });
      await shop.write({ runs, searches });
      return { runs, searches };
    });
    const store = memoryStore();
    const runtime = createCodemodeRuntime({
      store,
      executor,
      connectors: [shop],
      limits: { maxLookups: 30 },
    });
    const saving = createCodemodeRuntime({
      store,
      executor: new MockExecutor(async ({ shop }) => shop.read({})),
      connectors: [shop],
    });
    const saved = await saving.execute({ code: "async () => shop.read({})" });
    await saving.saveSnippet("read", { executionId: saved.executionId });
    const first = await runtime.execute({ code: "async () => null" });
    expect(first).toMatchObject({
      status: "paused",
      pending: [{ args: { runs: 16, searches: 14 } }],
    });
    const approved = await runtime.approve({ executionId: first.executionId });
    expect(approved).toMatchObject({ status: "completed", result: { runs: 16, searches: 14 } });
    expect(refusals).toEqual([
      { runs: 16, searches: 14 },
      { runs: 16, searches: 14 },
    ]);
  });
});
