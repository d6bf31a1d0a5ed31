// "./my-store.ts" of the conformance README: a third-party journal store (here the built-in one).
import { type JournalStore, memoryStore } from "@codemode/core";

export function myStore(): JournalStore {
  return memoryStore();
}
