// QuickJSExecutor against the executor suite, with every capability.
import { runExecutorConformance, runJournalIntegrity } from "@codemode/conformance";
import { KNOWN_GAPS } from "../test/known-gaps.ts";
import { QuickJSExecutor } from "./index.ts";

runExecutorConformance({
  name: "QuickJSExecutor",
  createExecutor: (settings) => new QuickJSExecutor(settings),
  capabilities: ["timeout", "memoryLimit", "abort", "console", "replay", "callLimit"],
  knownGaps: KNOWN_GAPS,
});

// the durable runtime's guarantees (ARCHITECTURE §7) over this executor, adversarially
runJournalIntegrity({
  name: "QuickJSExecutor",
  createExecutor: () => new QuickJSExecutor(),
});
