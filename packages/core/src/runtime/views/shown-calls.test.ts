import { describe, expect, it } from "vitest";
import { callDigest, decisionHandleOf } from "../../decision-handle.ts";
import { callEntry } from "../../test/run-context.ts";
import { staleCalls } from "./shown-calls.ts";

describe("staleCalls", () => {
  it("passes a handle whose calls all wait as shown, and says which call no longer does", async () => {
    const call = { connector: "shop", method: "buy" };
    const first = callEntry("exec_1", 1, { ...call, input: { sku: 1 } }, { state: "pending" });
    const second = callEntry("exec_1", 2, { ...call, input: { sku: 2 } }, { state: "pending" });
    const shown = async (entry: typeof first) => ({
      executionId: "exec_1",
      seq: entry.seq,
      connector: entry.connector,
      method: entry.method,
      args: undefined,
      digest: await callDigest(entry.connector, entry.method, entry.args, entry.error),
    });
    const handle = decisionHandleOf([await shown(first), await shown(second)], "exec_1");
    expect(await staleCalls(handle, [first, second])).toBeUndefined();
    expect(await staleCalls(handle, [second])).toBe(
      "Call #1 of this decision no longer waits: it was decided already, or another decision came first. Read the run's pending calls again.",
    );
    const changed = callEntry("exec_1", 2, { ...call, input: { sku: 3 } }, { state: "pending" });
    expect(await staleCalls(handle, [first, changed])).toBe(
      "Call #2 (shop.buy) waits with another input than the one this decision was shown. Read the run's pending calls again.",
    );
    // in doubt since it was shown: another call to decide
    const inDoubt = { ...second, error: "it may have run" };
    expect(await staleCalls(handle, [first, inDoubt])).toMatch(
      /^Call #2 \(shop\.buy\) waits with another input/,
    );
  });
});
