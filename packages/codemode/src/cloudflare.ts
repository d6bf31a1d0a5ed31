// Code Mode on Cloudflare Workers: the executor that loads one isolate per pass. The durable runtime
// itself comes from "codemode": `createCodemodeRuntime({ ctx: this.ctx, ... })` inside a Durable Object.
// Inside a Durable Object, load the sandboxes through SandboxLoader (see the executor's README).
export {
  DynamicWorkerExecutor,
  type DynamicWorkerExecutorOptions,
  SandboxLoader,
  type SandboxLoaderService,
  sandboxLoader,
  type WorkerLoaderLike,
} from "@codemode/executor-dynamic-worker";
