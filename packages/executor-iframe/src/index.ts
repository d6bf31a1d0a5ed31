export { DEFAULT_CSP, sandboxDocument } from "./iframe-document.ts";
export {
  IframeSandboxExecutor,
  type IframeSandboxExecutorOptions,
} from "./iframe-sandbox-executor.ts";
