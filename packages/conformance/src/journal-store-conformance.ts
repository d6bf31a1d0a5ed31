// The journal store suite's runner: the options a store passes and its groups, each a file of its
// own (store-*-conformance.ts, tool-call-bindings-, lease-, claimed-update- and
// cancel-conformance.ts).
import type { JournalStore } from "@codemode/core";
import { describe } from "vitest";
import { cancelConformance } from "./cancel-conformance.ts";
import { claimedUpdateConformance } from "./claimed-update-conformance.ts";
import { conformanceTest, type DeclareTest, type KnownGap } from "./known-gaps.ts";
import { leaseConformance } from "./lease-conformance.ts";
import { entriesTests } from "./store-entries-conformance.ts";
import { executionsTests } from "./store-executions-conformance.ts";
import type { StoreGroup } from "./store-group.ts";
import { storeNamesTests } from "./store-names-conformance.ts";
import { storeSnippetsTests } from "./store-snippets-conformance.ts";
import { toolCallBindingsTests } from "./tool-call-bindings-conformance.ts";

export interface JournalStoreConformanceOptions {
  name: string;
  /** a new, empty store for each test */
  createStore: () => JournalStore | Promise<JournalStore>;
  knownGaps?: readonly KnownGap[];
}

/** The behaviour every journal store shares: executions, entries, snippets, conditional updates. */
export function runJournalStoreConformance(options: JournalStoreConformanceOptions): void {
  const suite = conformanceTest(options.knownGaps);
  const createStore = async () => options.createStore();
  const journal = async (name = "default") => (await createStore()).journal(name);
  const group = (test: DeclareTest): StoreGroup => ({ test, journal, createStore });

  describe(`journal store conformance: ${options.name}`, () => {
    suite.group("executions", (test) => executionsTests(group(test)));
    suite.group("entries", (test) => entriesTests(group(test)));
    suite.group("snippets", (test) => storeSnippetsTests(group(test)));
    suite.group("tool-call bindings", (test) => toolCallBindingsTests(group(test)));
    suite.group("leases", (test) => leaseConformance(test, () => journal()));
    suite.group("claimed entry updates", (test) => claimedUpdateConformance(test, () => journal()));
    suite.group("cancellation", (test) => cancelConformance(test, () => journal()));
    suite.group("names", (test) => storeNamesTests(group(test)));
  });
}
