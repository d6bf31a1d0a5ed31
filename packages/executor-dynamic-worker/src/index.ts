export {
  type DynamicWorkerCode,
  DynamicWorkerExecutor,
  type DynamicWorkerExecutorOptions,
  type WorkerLoaderLike,
} from "./dynamic-worker-executor.ts";
export { SandboxLoader, type SandboxLoaderService, sandboxLoader } from "./sandbox-loader.ts";
