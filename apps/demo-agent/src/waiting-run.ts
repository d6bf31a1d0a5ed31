import {
  type CodemodeRuntime,
  type DecisionHandle,
  decisionHandleOf,
  type PendingAction,
  shownValue,
} from "codemode";
import { callEffect } from "./call-effects.ts";
import type { CardCall, WaitingCall } from "./chat-event.ts";
import type { DemoStores } from "./demo-stores.ts";

/**
 * A paused run as a person is shown it, in the chat's card and in the queue alike: its program, the
 * calls it made before it paused (they replay from the journal when it resumes), each waiting call
 * with its exact input (in the value codec's tagged JSON form) and what it would change (a call that
 * may already have run with its `inDoubt` and its idempotency key), and the handle of those calls,
 * which the answer carries back so that it decides exactly what was shown.
 */
export interface WaitingRun {
  executionId: string;
  code: string;
  done: CardCall[];
  pending: WaitingCall[];
  handle: DecisionHandle;
}

/**
 * The idempotency key of the call at `seq` of a run, as every pass gives it to the connector
 * (`<executionId>:<seq>`, the core's README): a call in doubt runs again under it.
 */
export const idempotencyKeyOf = (executionId: string, seq: number) => `${executionId}:${seq}`;

/** The run `executionId` waiting for `pending` (what the person is shown), as a `WaitingRun`. */
export async function waitingRun(
  runtime: CodemodeRuntime,
  stores: DemoStores,
  executionId: string,
  pending: readonly PendingAction[],
  handle: DecisionHandle = decisionHandleOf(pending, executionId),
): Promise<WaitingRun> {
  const execution = await runtime.execution(executionId);
  const waiting = new Set(pending.map((call) => call.seq));
  const done: CardCall[] = (execution?.calls ?? [])
    .filter((call) => !waiting.has(call.seq))
    .map(({ seq, connector, method, args, result, state }) => ({
      seq,
      connector,
      method,
      ...(args === undefined ? {} : { args: shownValue(args) }),
      ...(result === undefined ? {} : { result: shownValue(result) }),
      state,
    }));
  return {
    executionId,
    code: execution?.code ?? "",
    done,
    // each input as JSON shows it to the page: what JSON cannot hold says what it is; a call in
    // doubt (it may already have run) with the key it runs again under
    pending: pending.map((call): WaitingCall => {
      const effect = callEffect(call, stores);
      return {
        ...call,
        args: shownValue(call.args),
        ...(effect ? { effect } : {}),
        ...(call.inDoubt === undefined
          ? {}
          : { idempotencyKey: idempotencyKeyOf(executionId, call.seq) }),
      };
    }),
    handle,
  };
}

/** Every run waiting for a person, in the order `runtime.pending()` lists their calls, as the queue shows them. */
export async function waitingRuns(
  runtime: CodemodeRuntime,
  stores: DemoStores,
): Promise<WaitingRun[]> {
  const byRun = new Map<string, PendingAction[]>();
  for (const action of await runtime.pending()) {
    byRun.set(action.executionId, [...(byRun.get(action.executionId) ?? []), action]);
  }
  return Promise.all(
    [...byRun].map(([executionId, pending]) => waitingRun(runtime, stores, executionId, pending)),
  );
}
