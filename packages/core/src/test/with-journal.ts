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
