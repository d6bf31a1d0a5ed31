import type { Journal, JournalStore } from "../journal-store.ts";

/**
 * A store over `inner`'s storage whose journals take the methods `override` gives (for each
 * journal) and the rest from the journal itself: how a test holds, fails or races one operation.
 */
export function withJournal(
  inner: JournalStore,
  override: (journal: Journal) => Partial<Record<keyof Journal, unknown>>,
): JournalStore {
  return {
    specificationVersion: "v1",
    ...(inner.local ? { local: inner.local } : {}),
    journal(name) {
      const journal = inner.journal(name);
      return Object.assign(Object.create(journal) as Journal, override(journal));
    },
  };
}

/**
 * `inner`'s storage as another process opens it: journals with `override`'s methods, and none of
 * this process's `local` (the passes running here, the approvals in flight).
 */
export function inAnotherProcess(
  inner: JournalStore,
  override: (journal: Journal) => Partial<Record<keyof Journal, unknown>> = () => ({}),
): JournalStore {
  const { local: _local, ...store } = withJournal(inner, override);
  return store;
}
