import { describe, expect, it } from "vitest";
import {
  badHandle,
  callDigest,
  decisionHandleOf,
  digestOf,
  parseDecisionHandle,
  sameCallDigest,
} from "./decision-handle.ts";
import type { PendingAction } from "./types.ts";

const action = async (
  seq: number,
  args: string,
  executionId = "exec_1",
): Promise<PendingAction> => ({
  executionId,
  seq,
  connector: "shop",
  method: "charge",
  args: JSON.parse(args),
  digest: await callDigest("shop", "charge", args),
});

describe("decision handles", () => {
  it("a digest tells calls apart by connector, method and input, and no split of the text collides", async () => {
    const digests = await Promise.all([
      callDigest("shop", "charge", '{"amount":1}'),
      callDigest("shop", "charge", '{"amount":2}'),
      callDigest("shop", "refund", '{"amount":1}'),
      callDigest("sho", "pcharge", '{"amount":1}'),
      callDigest("shop", "charge", undefined),
      callDigest("shop", "charge", "-"),
      callDigest("shop", "charge", '{"amount":1}', undefined, "POST /charges"),
      callDigest("shop", "charge", '{"amount":1}', undefined, "POST /refunds"),
      callDigest("shop", "charge", '{"amount":1}', "in doubt", "POST /charges"),
    ]);
    expect(new Set(digests).size).toBe(digests.length);
    expect(digests.every((digest) => /^[0-9a-f]{64}$/.test(digest))).toBe(true);
    expect(await callDigest("shop", "charge", '{"amount":1}')).toBe(digests[0]);
  });

  it("a handle names the run and each shown call's seq and digest", async () => {
    const pending = [await action(1, '{"amount":1}'), await action(2, '{"amount":2}')];
    const handle = decisionHandleOf(pending);
    expect(handle).toEqual({
      version: 1,
      executionId: "exec_1",
      calls: pending.map(({ seq, digest }) => ({ seq, digest })),
    });
    expect(badHandle(handle, "exec_1")).toBeUndefined();
    expect(badHandle(handle, "exec_2")).toMatch(/decision handle/);
  });

  it("refuses to make a handle of nothing, of two runs, or of calls without a digest", async () => {
    expect(() => decisionHandleOf([])).toThrow(/pending calls/);
    const mixed = [await action(1, "1"), await action(2, "2", "exec_2")];
    expect(() => decisionHandleOf(mixed)).toThrow(/one run/);
    const bare = { ...(await action(1, "1")), digest: undefined } as unknown as PendingAction;
    expect(() => decisionHandleOf([bare])).toThrow(/no digest/);
  });

  it("a handle from outside is checked whole", async () => {
    const good = decisionHandleOf([await action(1, "1")]);
    const bad = [
      null,
      "handle",
      { ...good, version: 2 },
      { ...good, calls: [] },
      { ...good, calls: [{ seq: -1, digest: good.calls[0]?.digest }] },
      { ...good, calls: [{ seq: 1, digest: "xyz" }] },
      { ...good, calls: [good.calls[0], good.calls[0]] },
      {
        ...good,
        calls: Array.from({ length: 1001 }, (_, seq) => ({ seq, digest: "0".repeat(64) })),
      },
    ];
    for (const handle of bad) expect(badHandle(handle)).toBeDefined();
  });

  it("parses a handle from a request into its fields, or says what a handle is", async () => {
    const good = decisionHandleOf([await action(1, "1")]);
    const sent = JSON.parse(
      JSON.stringify({ ...good, extra: "x", calls: [{ ...good.calls[0], note: 1 }] }),
    );
    expect(parseDecisionHandle(sent, "exec_1")).toEqual(good);
    expect(() => parseDecisionHandle({ ...good, version: 2 })).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
    expect(() => parseDecisionHandle(good, "exec_other")).toThrow(/exec_other/);
  });
});

describe("sameCallDigest", () => {
  it("tells two calls the same exactly when their digests are", async () => {
    type Call = {
      connector: string;
      method: string;
      args?: string;
      error?: string;
      operation?: string;
    };
    const call: Call = { connector: "mail", method: "send", args: '{"to":"a"}' };
    const others: Call[] = [
      call,
      { ...call, connector: "chat" },
      { ...call, method: "draft" },
      { ...call, args: '{"to":"b"}' },
      { ...call, args: undefined },
      { ...call, error: "in doubt" },
      { ...call, error: "another reason, in doubt as well" },
      { ...call, operation: "POST https://mail.example/send" },
      { ...call, operation: "POST https://other.example/send" },
      { ...call, error: "in doubt", operation: "POST https://mail.example/send" },
    ];
    for (const a of others) {
      for (const b of others) {
        expect(sameCallDigest(a, b)).toBe((await digestOf(a)) === (await digestOf(b)));
      }
    }
  });
});
