export { DEFAULT_CSP } from "./iframe-document.ts";
export {
  IframeSandboxExecutor,
  type IframeSandboxExecutorOptions,
} from "./iframe-sandbox-executor.ts";
