// IframeSandboxExecutor against the executor suite, in Chromium. A sandboxed iframe runs in a
// process of its own, so removing it stops code that never yields (the "runaway code" group). There is no
// memory limit to enforce (the browser kills a frame's process only when it runs out), and a
// page's iframe has the browser's own fetch (blocked by the CSP) and setTimeout.
import { runExecutorConformance, runJournalIntegrity } from "@codemode/conformance";
import { IframeSandboxExecutor } from "./index.ts";

runExecutorConformance({
  name: "IframeSandboxExecutor",
  createExecutor: (settings) => new IframeSandboxExecutor(settings),
  capabilities: ["timeout", "abort", "console", "callLimit"],
  sandboxGlobals: ["fetch", "setTimeout"],
});

runJournalIntegrity({
  name: "IframeSandboxExecutor",
  createExecutor: () => new IframeSandboxExecutor(),
});
