export { QuickJSExecutor, type QuickJSExecutorOptions } from "./quickjs-executor.ts";
