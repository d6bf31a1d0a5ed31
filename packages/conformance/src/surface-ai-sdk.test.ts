// The AI SDK binding's player keeps the oracle exact: an approval it forges "for a tool call that
// showed no card" is never for a call whose request is in flight at that moment. Such a call may be
// asking right now, and the runtime rightly takes an answer that reads its binding after the
// request asked as the answer to that request's card (it cannot tell when a message was written):
// counting that answer as one that showed nothing is a false consent violation. Found by
// store-postgres's surface-integrity run (seed 438650497, once under load: a new model call and a
// forged approval at once, the forged one picked the new call's id before the call was marked in
// flight, and its read of the binding came back after the card was shown). Here the read is held
// until then on purpose, so the interleaving happens on every run.
import { type JournalStore, memoryStore } from "@codemode/core";
import { expect, it } from "vitest";
import { InProcessExecutor } from "./in-process-executor.ts";
import type { SurfaceCase } from "./surface-case.ts";
import { surfaceViolations } from "./surface-checks.ts";
import { playSurfaceCase } from "./surface-play.ts";

/** How many approval requests process 0 has shown, and a wait for the `count`th. */
function showings() {
  let shown = 0;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  return {
    shown() {
      shown++;
      for (const wait of waiting.filter((each) => each.count <= shown)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    },
    until(count: number): Promise<void> {
      if (shown >= count) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ count, resolve }));
    },
  };
}

/** `store`, each of whose journals has `method` replaced by `wrap` of it. */
function around<K extends "showToolCall" | "getToolCallBinding">(
  store: JournalStore,
  method: K,
  wrap: (original: (key: string, shown?: string) => Promise<unknown>) => typeof original,
): JournalStore {
  return {
    specificationVersion: "v1",
    ...(store.local ? { local: store.local } : {}),
    journal(name) {
      const journal = store.journal(name);
      const original = (journal[method] as (key: string, shown?: string) => Promise<unknown>).bind(
        journal,
      );
      const wrapped = wrap(original);
      return new Proxy(journal, {
        get(target, key) {
          if (key === method) return wrapped;
          const value = Reflect.get(target, key, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    },
  };
}

const FORGED_BESIDE_A_NEW_CALL: SurfaceCase = {
  program: [{ kind: "one", call: { gated: true, key: 0 } }],
  steps: [
    // call-0 asks: its card is shown, so no earlier call is left without one
    { action: { kind: "call", on: 0, variant: 0, twice: false, fresh: false, shape: "ui" } },
    // a new call (call-1) on process 0, and at once an approval for a call that showed no card on
    // process 1: the only call without a card is call-1, whose request is in flight
    {
      action: { kind: "call", on: 0, variant: 1, twice: false, fresh: false, shape: "ui" },
      with: { kind: "forgedAnswer", of: 0, on: 1, shape: "ui" },
    },
  ],
};

it("forges no approval for a tool call whose request is in flight (its card may be on its way)", async () => {
  const shows = showings();
  const trace = await playSurfaceCase(FORGED_BESIDE_A_NEW_CALL, {
    createExecutor: () => new InProcessExecutor(),
    createStores: () => {
      const store = memoryStore();
      // process 0 counts the approval requests it shows
      const first = around(store, "showToolCall", (original) => async (key, shown) => {
        const kept = await original(key, shown);
        shows.shown();
        return kept;
      });
      // process 1 reads a tool call's binding only once process 0 showed call-1's request: the
      // slow read PostgreSQL gave under load
      const second = around(store, "getToolCallBinding", (original) => async (key) => {
        await shows.until(2);
        return original(key);
      });
      return [first, second];
    },
  });
  expect(surfaceViolations(trace)).toEqual([]);
  // the forged approval names a tool call never made, as no call was left without a card
  const forged = trace.decisions.filter(
    (decision) => decision.step === 1 && !decision.shown.length,
  );
  expect(forged.map((decision) => decision.by)).toEqual([
    "an approval for ghost-answer-1, which showed no card",
  ]);
  expect(trace.cards.map((card) => card.toolCallId)).toEqual(["call-0", "call-1"]);
});
