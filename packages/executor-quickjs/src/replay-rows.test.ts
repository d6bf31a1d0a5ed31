import { createValueCodec, type RecordedCall } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { replayAdvance, replayRows } from "./replay-rows.ts";
import { REPLAY_KIND } from "./sandbox-replay.ts";

const codec = createValueCodec();
const call = (method: string, input: unknown, result: unknown): RecordedCall => ({
  namespace: "ns",
  method,
  input: codec.encode(input, { canonical: true }),
  result: codec.encode(result),
});

describe("replayRows", () => {
  it("writes four items a call, with an id per namespace and method and how to read the rest", () => {
    const rows = replayRows(
      [call("a", { x: 1 }, [1]), call("b", undefined, new Date(0)), call("a", 2, undefined)],
      1_000,
    );
    expect(rows.count).toBe(3);
    expect(rows.ids).toEqual(
      new Map([
        [
          "ns",
          new Map([
            ["a", 0],
            ["b", 1],
          ]),
        ],
      ]),
    );
    const items = JSON.parse(rows.text) as unknown[];
    expect(items).toHaveLength(12);
    expect(items.slice(0, 4)).toEqual([0, REPLAY_KIND.plainResult, { x: 1 }, [1]]);
    expect(items.slice(4, 6)).toEqual([1, REPLAY_KIND.taggedResult + REPLAY_KIND.undefinedInput]);
    expect(codec.decode(items[7] as string)).toEqual(new Date(0));
    expect(items.slice(8)).toEqual([0, REPLAY_KIND.undefinedResult, 2, null]);
  });

  it("keeps only the prefix that fits, and stops at a call it cannot embed", () => {
    const big = call("a", 1, "x".repeat(500));
    expect(replayRows([big, big, big], 1_100).count).toBe(2);
    const unreadable = { ...big, result: undefined } as unknown as RecordedCall;
    expect(replayRows([big, unreadable, big], 10_000).count).toBe(1);
  });
});

describe("replayAdvance", () => {
  it("moves the host's count forward by whole calls, never past what it loaded", () => {
    expect(replayAdvance(0, 3, 16)).toBe(3);
    expect(replayAdvance(3, 5, 16)).toBe(2);
    expect(replayAdvance(3, 16, 16)).toBe(13);
  });

  it("moves nothing for a total a lying sandbox could give", () => {
    for (const total of [2, 3, 17, 1e9, 3.5, Number.NaN, Number.POSITIVE_INFINITY, -1, "5", null]) {
      expect(replayAdvance(3, total, 16), String(total)).toBe(0);
    }
  });
});
