// What the journal store suite hands each of its groups.
import type { Journal, JournalStore } from "@codemode/core";
import type { DeclareTest } from "./known-gaps.ts";

/** What `runJournalStoreConformance` hands each of its groups. */
export interface StoreGroup {
  /** the suite's `it` inside the group's `describe` (known gaps applied) */
  test: DeclareTest;
  /** a journal of a new, empty store (named "default" unless told) */
  journal(name?: string): Promise<Journal>;
  /** a new, empty store */
  createStore(): Promise<JournalStore>;
}
