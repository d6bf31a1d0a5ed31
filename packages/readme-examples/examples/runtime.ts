// "./runtime" of the README examples: the application's runtime, as the codemode README's Usage makes
// one (there over SQLite; here in memory).
import { createCodemodeRuntime, memoryStore } from "codemode";
import { QuickJSExecutor } from "codemode/quickjs";
import { tasks } from "./tasks.ts";

export const runtime = createCodemodeRuntime({
  store: memoryStore(),
  executor: new QuickJSExecutor(),
  connectors: [tasks],
});
