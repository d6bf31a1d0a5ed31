import { CodemodeError } from "./codemode-error.ts";
import type { Journal, JournalStore } from "./journal-store.ts";
import { isStoreLocal } from "./runtime/context/store-local.ts";

/** Every method of `Journal`, all required (the record makes the compiler ask for a new one). */
const JOURNAL_METHODS: Readonly<Record<Exclude<keyof Journal, "specificationVersion">, true>> = {
  createExecution: true,
  getExecution: true,
  listExecutions: true,
  updateExecution: true,
  deleteExecution: true,
  pruneExecutions: true,
  listStale: true,
  listLapsed: true,
  getEntry: true,
  listEntries: true,
  putEntry: true,
  updateEntry: true,
  applyEntry: true,
  bindToolCall: true,
  getToolCallBinding: true,
  showToolCall: true,
  pruneToolCallBindings: true,
  putSnippet: true,
  getSnippet: true,
  listSnippets: true,
  deleteSnippet: true,
};

function refuse(message: string): never {
  throw new CodemodeError("INVALID_CONFIG", message);
}

function checkVersion(what: string, version: unknown): void {
  if (version === "v1") return;
  refuse(
    version === undefined
      ? `${what} has no specificationVersion: a journal store implements version "v1" of the JournalStore contract and says so (specificationVersion: "v1").`
      : `${what} implements version ${JSON.stringify(version)} of the JournalStore contract; this version of Code Mode knows "v1".`,
  );
}

/**
 * Throws `INVALID_CONFIG` unless `store` is a journal store of the version this package knows: an
 * object with `specificationVersion: "v1"`, a `journal` method and, if it has one, a `local` made by
 * `createStoreLocal()`. A runtime checks its store with it before it uses it; a store's author may too.
 */
export function checkJournalStore(store: unknown): asserts store is JournalStore {
  if (typeof store !== "object" || store === null) {
    refuse("The journal store must be an object (sqliteStore(db), memoryStore(), …).");
  }
  const { specificationVersion, journal, local } = store as Partial<Record<string, unknown>>;
  checkVersion("The journal store", specificationVersion);
  if (typeof journal !== "function") refuse("The journal store has no journal(name) method.");
  if (local !== undefined && !isStoreLocal(local)) {
    refuse("The journal store's local must be made by createStoreLocal(), once per storage.");
  }
}

/**
 * Throws `INVALID_CONFIG` unless `journal` (what a store's `journal(name)` returned) says
 * `specificationVersion: "v1"` and has every method of `Journal`; the message names the missing ones.
 */
export function checkJournal(journal: unknown): asserts journal is Journal {
  if (typeof journal !== "object" || journal === null) {
    refuse("The journal store's journal(name) must return an object.");
  }
  const methods = journal as Partial<Record<string, unknown>>;
  checkVersion("The journal", methods.specificationVersion);
  const missing = Object.keys(JOURNAL_METHODS).filter(
    (name) => typeof methods[name] !== "function",
  );
  if (missing.length > 0) {
    refuse(
      `The journal lacks ${missing.length === 1 ? "a method" : "methods"} of the JournalStore contract "v1": ${missing.join(", ")}.`,
    );
  }
}
