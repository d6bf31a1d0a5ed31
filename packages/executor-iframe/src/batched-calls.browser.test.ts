// Calls made at once, in Chromium: forged `calls` messages against the page (sandbox-frame.ts), and
// calls whose text is larger than a batch may be. Each call starts once, in order, and a batch is no
// way around a limit. The cases every executor shares (the in-flight limit across a batch, calls
// queued after the program settled, large replies of one batch, gated calls at once approved) are
// the conformance suite's "batched calls" group.
import type { HostReply } from "@codemode/executor-kit";
import { afterEach, describe, expect, it } from "vitest";
import { disposeAll, executor, hostileFrame, resultOf } from "../test/hostile-frame.ts";
import { MAX_BATCH_CHARS } from "./sandbox-frame.ts";

afterEach(disposeAll);

const OK: HostReply = ["ok", '"ok"'];

describe("iframe batching: forged calls messages", () => {
  it("a batch repeating or lowering an id starts each id once, in order", async () => {
    const { heard } = hostileFrame(
      `(data, port) => {
      const calls = (list) => port.postMessage({ type: "calls", nonce: data.nonce, calls: JSON.stringify(list) });
      calls([[1, "ns", "echo", "1"], [1, "ns", "echo", "again"], [0, "ns", "echo", "lower"], [2, "ns", "echo", "2"]]);
      port.postMessage({ type: "call", nonce: data.nonce, id: 2, namespace: "ns", method: "echo", input: "dup" });
      calls([[2, "ns", "echo", "dup"], [3, "ns", "echo", "3"], [3, "ns", "echo", "dup"], ["4", "ns", "echo", "x"], [5, "ns", "echo"], [6, ["ns"], "echo", "x"], [7, "ns", "echo", "7", "extra"], [8, "ns", "echo", "8"]]);
      calls({ 0: [9, "ns", "echo", "9"], length: 1 });
      port.postMessage({ type: "log", nonce: data.nonce, line: "sent" });
    }`,
      { reply: OK },
    );
    await expect.poll(() => heard.logs, { timeout: 20_000 }).toEqual(["sent"]);
    expect(heard.calls.map(([id, , , input]) => `${id} ${input}`)).toEqual([
      "1 1",
      "2 2",
      "3 3",
      "8 8",
    ]);
  });

  it("a batch cannot put more than maxConcurrentCalls in flight", async () => {
    const { heard } = hostileFrame(
      `(data, port) => {
        let refused = 0;
        port.onmessage = (event) => { if (event.data.reply[3] === "BUDGET_EXCEEDED") refused++; };
        const list = Array.from({ length: 8 }, (_, i) => [i + 1, "ns", "echo", "1"]);
        port.postMessage({ type: "calls", nonce: data.nonce, calls: JSON.stringify(list) });
        port.postMessage({ type: "calls", nonce: data.nonce, calls: JSON.stringify(Array.from({ length: 9 }, (_, i) => [i + 100, "ns", "echo", "1"])) });
        setTimeout(() => port.postMessage({ type: "log", nonce: data.nonce, line: "refused " + refused }), 300);
      }`,
      { maxConcurrentCalls: 8, reply: OK },
    );
    await expect.poll(() => heard.logs, { timeout: 20_000 }).toHaveLength(1);
    // the hostile frame's handler replies at once, so 8 may be in flight again by the second batch
    expect(heard.calls.length).toBeLessThanOrEqual(8 + 8);
  });

  it("a batch longer than a batch may be is not read at all: none of its calls starts", async () => {
    // two well-formed calls, the first with an input a call may send but a batch may not hold
    const { heard } = hostileFrame(
      `(data, port) => {
        const big = "1".repeat(${MAX_BATCH_CHARS});
        port.postMessage({ type: "calls", nonce: data.nonce, calls: JSON.stringify([[1, "ns", "echo", big], [2, "ns", "echo", "2"]]) });
        port.postMessage({ type: "calls", nonce: data.nonce, calls: JSON.stringify([[3, "ns", "echo", "3"], [4, "ns", "echo", "4"]]) });
        port.postMessage({ type: "log", nonce: data.nonce, line: "sent" });
      }`,
      { reply: OK },
    );
    await expect.poll(() => heard.logs, { timeout: 20_000 }).toEqual(["sent"]);
    expect(heard.calls.map(([id, , , input]) => `${id} ${input}`)).toEqual(["3 3", "4 4"]);
  });

  it("calls made at once whose text is larger than a batch go apart, each once", async () => {
    const ledger: number[] = [];
    const outcome = await executor().execute({
      globals: { ns: { size: async (input) => ledger.push((input as string).length) } },
      code: `async () => {
        const big = "x".repeat(${Math.ceil(MAX_BATCH_CHARS / 2)});
        return (await Promise.all([ns.size(big), ns.size(big), ns.size("small"), ns.size(big)])).length;
      }`,
    });
    expect(resultOf(outcome)).toBe(4);
    const big = Math.ceil(MAX_BATCH_CHARS / 2);
    // in order: the first alone, the second with the small one, the last alone
    expect(ledger).toEqual([big, big, 5, big]);
  });
});
