// Code Mode on Cloudflare Workers: the executor that loads one isolate per pass. The durable runtime
// itself comes from "codemode": `createCodemodeRuntime({ ctx: this.ctx, ... })` inside a Durable Object.
export {
  DynamicWorkerExecutor,
  type DynamicWorkerExecutorOptions,
  type WorkerLoaderLike,
} from "@codemode/executor-dynamic-worker";
