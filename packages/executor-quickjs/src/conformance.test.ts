// QuickJSExecutor against the executor suite, with every capability.
import { runExecutorConformance } from "@codemode/conformance";
import { QuickJSExecutor } from "./index.ts";

runExecutorConformance({
  name: "QuickJSExecutor",
  createExecutor: () => new QuickJSExecutor(),
  capabilities: ["timeout", "interrupt", "memoryLimit", "abort", "console", "replay"],
});
