// The replay group of the executor suite (for an executor with `replay`): recorded calls are answered
// in the sandbox while they match, whatever order the program writes an input's keys in and whatever
// the values' types, and the host hears how many; a program that replaces the built-ins a comparison
// could use, or adds getters past the end of the hint, gets no recorded answer for an input it did
// not send; a pass that throws or is aborted after replayed calls still reports them.
import type { AbortSignalLike, ExecuteRequest, HostNamespaces, RecordedCall } from "@codemode/core";
import { createValueCodec } from "@codemode/core";
import { expect } from "vitest";
import { type ExecutorGroup, execute, SLOW_TEST_MS } from "./executor-fixtures.ts";
import { errorOf, resultOf, sleep } from "./suite-parts.ts";

// The platform global this group uses, typed by hand: the suite compiles without Node, DOM or
// Workers types and runs in all three.
declare const AbortController: new () => {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
};

const codec = createValueCodec();

/** A call an earlier pass recorded, as the runtime hands it over (the input in canonical text). */
function recordedCall(
  namespace: string,
  method: string,
  input: unknown,
  result: unknown,
): RecordedCall {
  return {
    namespace,
    method,
    input: codec.encode(input, { canonical: true }),
    result: codec.encode(result),
  };
}

/** `store.read({ key })` as recorded: its result carries the key and the word "recorded". */
const recordedRead = (key: number) =>
  recordedCall("store", "read", { key }, { key, value: `recorded ${key}` });

/**
 * An executor may answer in the sandbox only when a hint holds enough calls to pay for it, so every
 * hint here holds at least this many: after the test's own calls come calls of a method no program
 * here makes (which end replay as the end of the list would).
 */
const REPLAY_HINT_CALLS = 32;

/** A replay pass's host side: the inputs that reached `store`, and each `advance` count. */
interface ReplayHost {
  globals: HostNamespaces;
  delivered: unknown[];
  advanced: number[];
  /** the hint: these calls, then calls of `store.unused` up to `REPLAY_HINT_CALLS` */
  replay(calls: RecordedCall[]): NonNullable<ExecuteRequest["replay"]>;
}

function padded(calls: RecordedCall[]): RecordedCall[] {
  const unused = Array.from({ length: Math.max(0, REPLAY_HINT_CALLS - calls.length) }, (_, index) =>
    recordedCall("store", "unused", { index }, null),
  );
  return [...calls, ...unused];
}

function replayHost(): ReplayHost {
  const delivered: unknown[] = [];
  const advanced: number[] = [];
  return {
    delivered,
    advanced,
    globals: {
      store: {
        read: async (input) => {
          delivered.push(input);
          return { key: (input as { key?: unknown })?.key, value: "live" };
        },
        list: async (input) => {
          delivered.push(input);
          return "live";
        },
      },
    },
    replay: (calls) => ({ calls: padded(calls), advance: (count) => advanced.push(count) }),
  };
}

const sum = (counts: number[]) => counts.reduce((total, count) => total + count, 0);

/** The "replay" group. */
export function replayTests({ testWith, createExecutor, healthy }: ExecutorGroup): void {
  testWith("replay")(
    "answers recorded calls in the sandbox while they match, and tells the host how many",
    async () => {
      const executor = await createExecutor();
      const host = replayHost();
      const outcome = await execute(executor, {
        code: `async () => {
          const values = [];
          for (const key of [0, 1, 2]) values.push((await store.read({ key })).value);
          values.push((await store.read({ key: 9 })).value); // differs from the record: goes to the host
          values.push((await store.read({ key: 3 })).value); // matches, but replay has ended
          return values;
        }`,
        globals: host.globals,
        replay: host.replay([0, 1, 2, 3].map(recordedRead)),
      });
      expect(resultOf(outcome)).toEqual(["recorded 0", "recorded 1", "recorded 2", "live", "live"]);
      expect(host.delivered).toEqual([{ key: 9 }, { key: 3 }]);
      expect(host.advanced).toEqual([3]);
    },
  );

  testWith("replay")(
    "replays a recorded call whose input the program writes with its keys in another order",
    async () => {
      const executor = await createExecutor();
      const host = replayHost();
      const outcome = await execute(executor, {
        code: "async () => (await store.read({ zone: 'b', area: 'a', key: 1 })).value",
        globals: host.globals,
        replay: host.replay([
          recordedCall("store", "read", { area: "a", key: 1, zone: "b" }, { value: "recorded" }),
        ]),
      });
      expect(resultOf(outcome)).toBe("recorded");
      expect(host.delivered).toEqual([]);
      expect(host.advanced).toEqual([1]);
    },
  );

  testWith("replay")(
    "replays calls whose input or result is not plain JSON (Date, Map, undefined)",
    async () => {
      const executor = await createExecutor();
      const host = replayHost();
      const outcome = await execute(executor, {
        code: `async () => {
          const found = await store.read({ since: new Date(0), tags: new Set(["a"]) });
          const nothing = await store.list();
          return [found instanceof Map, found.get("when") instanceof Date, found.get("when").getTime(), nothing];
        }`,
        globals: host.globals,
        replay: host.replay([
          recordedCall(
            "store",
            "read",
            { since: new Date(0), tags: new Set(["a"]) },
            new Map([["when", new Date(5)]]),
          ),
          recordedCall("store", "list", undefined, undefined),
        ]),
      });
      expect(resultOf(outcome)).toEqual([true, true, 5, undefined]);
      expect(host.delivered).toEqual([]);
      expect(host.advanced).toEqual([2]);
    },
  );

  testWith("replay")(
    "a program that replaces JSON and Object built-ins gets no recorded answer for an input it did not send",
    async () => {
      const executor = await createExecutor();
      // Every built-in a replay could compare inputs with now says the input is the recorded one.
      const hijack = `
        const saved = { stringify: JSON.stringify, parse: JSON.parse, keys: Object.keys, sort: Array.prototype.sort, entries: Object.entries };
        JSON.stringify = () => '{"key":1}';
        JSON.parse = () => ({ key: 1, value: "forged" });
        Object.keys = () => ["key"];
        Object.entries = () => [["key", 1]];
        Array.prototype.sort = function () { return this; };
        const restore = () => {
          JSON.stringify = saved.stringify; JSON.parse = saved.parse; Object.keys = saved.keys;
          Object.entries = saved.entries; Array.prototype.sort = saved.sort;
        };`;
      const different = replayHost();
      const outcome = await execute(executor, {
        code: `async () => {
          ${hijack}
          try {
            return [(await store.read({ key: 0 })).value, (await store.read({ key: 99 })).value];
          } finally { restore(); }
        }`,
        globals: different.globals,
        replay: different.replay([0, 1].map(recordedRead)),
      });
      expect(resultOf(outcome)).toEqual(["recorded 0", "live"]);
      expect(different.delivered).toEqual([{ key: 99 }]);
      expect(different.advanced).toEqual([1]);

      // The same input with its keys in another order still replays, or goes to the host.
      const reordered = replayHost();
      const again = await execute(executor, {
        code: `async () => {
          ${hijack}
          try { return (await store.read({ zone: "b", key: 1 })).value; } finally { restore(); }
        }`,
        globals: reordered.globals,
        replay: reordered.replay([
          recordedCall("store", "read", { key: 1, zone: "b" }, { value: "recorded" }),
        ]),
      });
      const value = resultOf(again);
      if (value === "recorded") {
        expect(reordered.delivered).toEqual([]);
        expect(reordered.advanced).toEqual([1]);
      } else {
        expect(value).toBe("live");
        expect(reordered.delivered).toEqual([{ zone: "b", key: 1 }]);
        expect(sum(reordered.advanced)).toBe(0);
      }
    },
  );

  testWith("replay")(
    "getters on Array.prototype and Object.prototype cannot add a recorded call past the end",
    async () => {
      const executor = await createExecutor();
      const host = replayHost();
      const recorded = Array.from({ length: REPLAY_HINT_CALLS }, (_, key) => recordedRead(key));
      const outcome = await execute(executor, {
        code: `async () => {
          const count = ${REPLAY_HINT_CALLS};
          const forged = { namespace: "store", method: "read", input: '{"key":' + count + '}', result: '{"value":"forged"}' };
          // [id, kind, input, result]: how a flat list of four items a call would go on
          const row = [0, 0, { key: count }, { value: "forged" }];
          // the names first: an array grown after the getters exist would meet them
          const names = Array.from({ length: 5 * count }, (_, index) => String(count + index));
          for (const name of names) {
            const index = Number(name);
            for (const target of [Array.prototype, Object.prototype]) {
              Object.defineProperty(target, name, {
                get() { return index === count ? forged : row[index % 4]; },
                configurable: true,
              });
            }
          }
          try {
            let replayed = 0;
            for (let key = 0; key < count; key++) {
              if ((await store.read({ key })).value === "recorded " + key) replayed++;
            }
            return [replayed, (await store.read({ key: count })).value];
          } finally {
            for (const name of names) { delete Array.prototype[name]; delete Object.prototype[name]; }
          }
        }`,
        globals: host.globals,
        replay: host.replay(recorded),
      });
      expect(resultOf(outcome)).toEqual([REPLAY_HINT_CALLS, "live"]);
      expect(host.delivered).toEqual([{ key: REPLAY_HINT_CALLS }]);
      expect(host.advanced).toEqual([REPLAY_HINT_CALLS]);
    },
  );

  testWith("replay")(
    "a replayed call after which the program throws is still reported",
    async () => {
      const executor = await createExecutor();
      const host = replayHost();
      const error = errorOf(
        await execute(executor, {
          code: `async () => {
            const { value } = await store.read({ key: 0 });
            throw new RangeError("after " + value);
          }`,
          globals: host.globals,
          replay: host.replay([0, 1].map(recordedRead)),
        }),
      );
      expect(error).toMatchObject({
        code: "THROWN",
        name: "RangeError",
        message: "after recorded 0",
      });
      expect(host.delivered).toEqual([]);
      expect(host.advanced).toEqual([1]);
    },
  );

  testWith("replay")(
    "a pass aborted after replayed calls: the host heard of them first; no call reaches it after",
    async () => {
      const executor = await createExecutor();
      const host = replayHost();
      const controller = new AbortController();
      const seen: { advancedBefore?: number; finish?: (value: unknown) => void } = {};
      const waiting = new Promise<void>((resolve) => {
        host.globals.store = {
          ...host.globals.store,
          wait: () => {
            seen.advancedBefore = sum(host.advanced);
            resolve();
            return new Promise((finish) => {
              seen.finish = finish;
            });
          },
        };
      });
      const pending = execute(executor, {
        code: `async () => {
          await store.read({ key: 0 });
          await store.read({ key: 1 });
          await store.wait();
          await store.read({ key: 2 });
          return "finished";
        }`,
        globals: host.globals,
        signal: controller.signal,
        limits: { timeoutMs: 20_000 },
        replay: host.replay([0, 1, 2].map(recordedRead)),
      });
      await Promise.race([waiting, pending]);
      expect(seen.advancedBefore, "reported before the next call reached the host").toBe(2);
      controller.abort(new Error("stopped by the conformance suite"));
      expect(errorOf(await pending).code).toBe("ABORTED");
      seen.finish?.("too late");
      await sleep(100);
      expect(host.delivered).toEqual([]);
      expect(sum(host.advanced)).toBe(2);
      await healthy(executor);
    },
    SLOW_TEST_MS,
  );

  testWith("replay")(
    "an advance that aborts the pass keeps the call that carried it from the host",
    async () => {
      const executor = await createExecutor();
      const host = replayHost();
      const controller = new AbortController();
      const outcome = await execute(executor, {
        code: `async () => {
          await store.read({ key: 0 });
          await store.read({ key: 5 });
          return "finished";
        }`,
        globals: host.globals,
        signal: controller.signal,
        limits: { timeoutMs: 20_000 },
        replay: {
          calls: padded([0, 1].map(recordedRead)),
          advance: (count) => {
            host.advanced.push(count);
            controller.abort(new Error("stopped while told of replayed calls"));
          },
        },
      });
      expect(errorOf(outcome).code).toBe("ABORTED");
      await sleep(50);
      expect(host.delivered).toEqual([]);
      expect(host.advanced).toEqual([1]);
      await healthy(executor);
    },
    SLOW_TEST_MS,
  );
}
