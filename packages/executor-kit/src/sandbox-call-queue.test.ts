import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { type QueuedCall, sandboxCallQueue } from "./sandbox-call-queue.ts";
import { sandboxSource } from "./sandbox-source.ts";
import type { BatchedCall, NumberedCall } from "./sandbox-wire.ts";

interface Sent {
  ids: number[];
  size: number;
  text: string;
}

/**
 * The queue in a realm of its own, as a sandbox has it, with that realm's `JSON.stringify` (taken
 * before `setup` runs there, as a harness takes its built-ins before the program runs).
 */
function queueIn(options: { maxBatchChars: number; numbered: boolean; setup?: string }) {
  const realm = runInNewContext("globalThis") as { JSON: JSON };
  const make = runInNewContext(sandboxSource(sandboxCallQueue), realm) as typeof sandboxCallQueue;
  const sent: Sent[] = [];
  const queue = make<QueuedCall>(
    queueMicrotask,
    realm.JSON.stringify,
    options.maxBatchChars,
    options.numbered,
    (head, size, text) => {
      const ids: number[] = [];
      let call: QueuedCall | null = head;
      for (let index = 0; index < size && call !== null; index++, call = call.next)
        ids.push(call.id);
      sent.push({ ids, size, text });
    },
  );
  // the calls are the realm's object literals, as a harness makes them
  const literal = runInNewContext(
    `(id, input) => ({ next: null, id, namespace: "ns", method: "echo", input })`,
    realm,
  ) as (id: number, input: string) => QueuedCall;
  if (options.setup) runInNewContext(options.setup, realm);
  const call = (id: number, input = `${id}`) => literal(id, input);
  const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  return { queue, sent, call, turn };
}

describe("sandboxCallQueue", () => {
  it("sends the calls of one turn together once its microtasks ran, a call alone without text", async () => {
    const { queue, sent, call, turn } = queueIn({ maxBatchChars: 1_000, numbered: false });
    // a reaction registered before the first call runs before the queue is sent
    void Promise.resolve().then(() => queue.add(call(3)));
    queue.add(call(1));
    queue.add(call(2, '{"a":[1,"two"]}'));
    expect(sent).toEqual([]);
    await turn();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.ids).toEqual([1, 2, 3]);
    const entries = JSON.parse(sent[0]?.text ?? "") as BatchedCall[];
    expect(entries).toEqual([
      ["ns", "echo", "1"],
      ["ns", "echo", '{"a":[1,"two"]}'],
      ["ns", "echo", "3"],
    ]);
    expect(sent[0]?.size).toBe(3);

    queue.add(call(4));
    await turn();
    expect(sent[1]).toEqual({ ids: [4], size: 1, text: "" });
  });

  it("numbers the entries for a host that answers by id", async () => {
    const { queue, sent, call, turn } = queueIn({ maxBatchChars: 1_000, numbered: true });
    queue.add(call(7));
    queue.add(call(8));
    await turn();
    expect(JSON.parse(sent[0]?.text ?? "") as NumberedCall[]).toEqual([
      [7, "ns", "echo", "7"],
      [8, "ns", "echo", "8"],
    ]);
  });

  it("keeps a batch's text within the limit: consecutive calls together, a larger one on its own", async () => {
    // an entry is 16 characters and its input, a batch's brackets and commas add the rest: 55 for three
    const { queue, sent, call, turn } = queueIn({ maxBatchChars: 60, numbered: false });
    for (const [id, input] of [
      [1, "a"],
      [2, "b"],
      [3, "c"],
      [4, "x".repeat(60)],
      [5, "d"],
    ] as const) {
      queue.add(call(id, input));
    }
    await turn();
    expect(sent.map(({ ids }) => ids)).toEqual([[1, 2, 3], [4], [5]]);
    for (const { text } of sent) expect(text.length).toBeLessThanOrEqual(60);
    expect(sent[1]?.text).toBe("");
    expect(sent[2]?.text).toBe("");
  });

  it("sends at once on flush, and nothing twice", async () => {
    const { queue, sent, call, turn } = queueIn({ maxBatchChars: 1_000, numbered: false });
    queue.add(call(1));
    queue.add(call(2));
    queue.flush();
    expect(sent.map(({ ids }) => ids)).toEqual([[1, 2]]);
    queue.add(call(3));
    await turn();
    expect(sent.map(({ ids }) => ids)).toEqual([[1, 2], [3]]);
    queue.flush();
    expect(sent).toHaveLength(2);
  });

  it("reaches no accessor or method a program put on a prototype after it was made", async () => {
    const { queue, sent, call, turn } = queueIn({
      maxBatchChars: 1_000,
      numbered: true,
      setup: `
        for (const target of [Object.prototype, Array.prototype]) {
          for (const name of ["0", "1", "next", "push", "toJSON"]) {
            Object.defineProperty(target, name, {
              get() { throw new Error("read " + name); },
              set() { throw new Error("wrote " + name); },
              configurable: true,
            });
          }
        }
        JSON.stringify = () => '"forged"';
        String.prototype.concat = () => "forged";
      `,
    });
    queue.add(call(1));
    queue.add(call(2));
    await turn();
    expect(JSON.parse(sent[0]?.text ?? "")).toEqual([
      [1, "ns", "echo", "1"],
      [2, "ns", "echo", "2"],
    ]);
  });
});
