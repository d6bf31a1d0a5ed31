// QuickJSExecutor inside workerd, against the executor suite: the .wasm comes in as a compiled module.
import { runExecutorConformance, runJournalIntegrity } from "@codemode/conformance";
import { QuickJSExecutor } from "../../src/index.ts";
import { KNOWN_GAPS } from "../known-gaps.ts";
import wasmModule from "./quickjs.wasm";

runExecutorConformance({
  name: "QuickJSExecutor (workerd)",
  createExecutor: (settings) => new QuickJSExecutor({ wasmModule, ...settings }),
  capabilities: ["timeout", "memoryLimit", "abort", "console", "replay", "callLimit"],
  knownGaps: KNOWN_GAPS,
});

runJournalIntegrity({
  name: "QuickJSExecutor (workerd)",
  createExecutor: () => new QuickJSExecutor({ wasmModule }),
});
