export {
  type DynamicWorkerCode,
  DynamicWorkerExecutor,
  type DynamicWorkerExecutorOptions,
  type WorkerLoaderLike,
} from "./dynamic-worker-executor.ts";
