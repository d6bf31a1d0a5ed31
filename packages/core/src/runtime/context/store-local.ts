import type { StoreLocal } from "../../journal-store.ts";
import { type ApprovalAsks, createApprovalAsks } from "./approval-asks.ts";
import { createLivePasses, type LivePasses } from "./live-passes.ts";

/**
 * What the runtimes of one process keep about one storage beside its journal, and never persist:
 * the runs with a pass (or a revert) running here, so no runtime expires or takes a run another
 * runtime of this process is driving (guarantee 7), and the approvals in flight with the calls
 * passes are making wait, so an approval never covers a call that started to wait while it was
 * asked (guarantee 1). A store makes one with `createStoreLocal()` per storage and hands the same
 * object from every store it makes over that storage in this process (runtimes made per request
 * over one Durable Object's storage, one database, one pool and schema must share it); storage that
 * is new (a Durable Object that was reset) gets a new one, with nothing of passes that died with
 * the old.
 */
export interface StoreLocalState {
  readonly live: LivePasses;
  readonly asks: ApprovalAsks;
}

/** the state of each `StoreLocal` made here: a store's `local` is only a key to it */
const states = new WeakMap<object, StoreLocalState>();

const emptyState = (): StoreLocalState =>
  Object.freeze({ live: createLivePasses(), asks: createApprovalAsks() });

/** A new, empty `StoreLocal` for one storage. */
export function createStoreLocal(): StoreLocal {
  const local = Object.freeze({}) as StoreLocal;
  states.set(local, emptyState());
  return local;
}

/** Whether `value` was made by `createStoreLocal` (a store's `local` must be). */
export function isStoreLocal(value: unknown): value is StoreLocal {
  return typeof value === "object" && value !== null && states.has(value);
}

const ownLocals = new WeakMap<object, StoreLocalState>();

/**
 * The `local` of `store`; a store that has none keeps one for itself, by its own identity: runtimes
 * over that same store object share it, runtimes over another object (another process, as far as
 * this one can tell) do not.
 */
export function localOf(store: { readonly local?: StoreLocal }): StoreLocalState {
  const own = store.local && states.get(store.local);
  if (own) return own;
  let local = ownLocals.get(store);
  if (!local) {
    local = emptyState();
    ownLocals.set(store, local);
  }
  return local;
}
