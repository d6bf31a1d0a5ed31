// DynamicWorkerExecutor against the executor suite, inside workerd, with a real Worker Loader.

import { env } from "cloudflare:workers";
import { runExecutorConformance } from "@codemode/conformance";
import { DynamicWorkerExecutor } from "./index.ts";

runExecutorConformance({
  name: "DynamicWorkerExecutor",
  createExecutor: () => new DynamicWorkerExecutor({ loader: env.LOADER }),
  capabilities: ["timeout", "abort", "console"],
  sandboxGlobals: ["fetch", "setTimeout"],
});
