import { describe, expect, it } from "vitest";
import type { Connector } from "../../connector.ts";
import { PRELUDE_CHANNEL } from "../../sandbox-protocol.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { runningRun, testContext, testPass } from "../../test/run-context.ts";
import { hostGlobals } from "./host-globals.ts";

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
