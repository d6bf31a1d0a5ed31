import { WorkerEntrypoint } from "cloudflare:workers";
import { CodemodeError } from "@codemode/core";
import type { DynamicWorkerCode, WorkerLoaderLike } from "./dynamic-worker-executor.ts";
import type { HarnessEntrypoint } from "./worker-harness.ts";

/** The Worker Loader binding as `SandboxLoader` calls it. */
interface Loader {
  load(code: DynamicWorkerCode): { getEntrypoint(): unknown };
}

/** A loaded worker's handles, kept until well after the request that made them has ended. */
interface Held {
  handles: unknown[];
  settledAt?: number;
}
const held = new Set<Held>();
/** Handles of a pass that settled this long ago belong to a request that has surely ended. */
const HOLD_MS = 1_000;

/**
 * A `WorkerEntrypoint` that loads each sandbox worker of `DynamicWorkerExecutor` and runs its pass
 * in a request of its own, for executors that live in a Durable Object. Export it from the Worker's
 * main module (`export { SandboxLoader } from "@codemode/executor-dynamic-worker"`), keep the Worker
 * Loader binding named `LOADER`, and give the executor `loader: sandboxLoader(ctx.exports.SandboxLoader)`.
 *
 * Why: the handles to a loaded worker (the stub `LOADER.load()` returns, its entrypoint, the method
 * object of `entrypoint.evaluate`) belong to the request context that made them, the loaded isolate
 * lives as long as they do, and workerd 1.20260426 gives them no `Symbol.dispose`. A Durable Object
 * has one context for its whole life, so there only the garbage collector ends them; when its sweep
 * runs while the object's context is current, workerd tears the loaded isolate down inside the sweep
 * and aborts the process ("tried to defer destruction during isolate shutdown"). A request's context
 * ends with the request, and that end, not the collector, destroys the loaded worker; the handles are
 * also held here until a while after the pass, so no sweep finalizes them while the request is still
 * current. The cost is one local RPC hop per pass; the host bridge passes through as a stub, so the
 * sandbox's calls still go straight to the host.
 */
export class SandboxLoader extends WorkerEntrypoint<{ LOADER?: Loader }> {
  async evaluate(code: DynamicWorkerCode, bridge: unknown, input?: string): Promise<string> {
    release();
    const loader = this.env.LOADER;
    if (!loader || typeof loader.load !== "function") {
      throw new CodemodeError(
        "INVALID_CONFIG",
        'SandboxLoader needs the Worker Loader binding named LOADER (wrangler.jsonc: "worker_loaders": [{ "binding": "LOADER" }]).',
      );
    }
    const worker = loader.load(code);
    const entrypoint = worker.getEntrypoint() as HarnessEntrypoint;
    // the method object holds the entrypoint too; called as it is (`.call` would be an RPC property)
    const method = entrypoint.evaluate;
    const call = method(bridge, input);
    const handles: Held = { handles: [worker, entrypoint, method, call] };
    held.add(handles);
    try {
      return await call;
    } finally {
      handles.settledAt = Date.now();
    }
  }
}

/** Lets go of the handles of passes that settled a while ago (their requests have ended). */
function release(): void {
  const now = Date.now();
  for (const entry of held) {
    if (entry.settledAt !== undefined && now - entry.settledAt >= HOLD_MS) held.delete(entry);
  }
}

/** The part of `ctx.exports.SandboxLoader` that `sandboxLoader` calls. */
export interface SandboxLoaderService {
  evaluate(code: DynamicWorkerCode, bridge: unknown, input?: string): Promise<string>;
}

/**
 * The `loader` of a `DynamicWorkerExecutor` in a Durable Object: every `load(code)` becomes a call of
 * `SandboxLoader.evaluate`, which loads the worker and runs the pass in a request of its own.
 */
export function sandboxLoader(service: SandboxLoaderService): WorkerLoaderLike {
  if (!service || typeof (service as Partial<SandboxLoaderService>).evaluate !== "function") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "sandboxLoader() needs ctx.exports.SandboxLoader: export { SandboxLoader } from the Worker's main module.",
    );
  }
  return {
    load: (code) => ({
      getEntrypoint: (): HarnessEntrypoint => ({
        evaluate: (bridge, input) => service.evaluate(code, bridge, input),
      }),
    }),
  };
}
