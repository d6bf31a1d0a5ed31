// QuickJSExecutor against the executor suite, with every capability.
import { runExecutorConformance, runJournalIntegrity } from "@codemode/conformance";
import { QuickJSExecutor } from "./index.ts";

runExecutorConformance({
  name: "QuickJSExecutor",
  createExecutor: () => new QuickJSExecutor(),
  capabilities: ["timeout", "memoryLimit", "abort", "console", "replay"],
});

// the durable runtime's guarantees (ARCHITECTURE §7) over this executor, adversarially
runJournalIntegrity({
  name: "QuickJSExecutor",
  createExecutor: () => new QuickJSExecutor(),
});
