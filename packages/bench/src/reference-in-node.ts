// The reference (@cloudflare/codemode 0.5.6) loaded in Node for what needs no Worker: its typegen,
// search, describe and tool description are plain functions, but its modules import
// `cloudflare:workers`, which only workerd provides. A module hook answers that import with empty
// base classes, and the runtime handle gets a context whose runtime facet lists no snippets, which
// is all its `search` and `describe` read from storage. Timings here are Node's; workerd's clock
// does not move during pure computation, so these could not be timed there.
import { register } from "node:module";

const WORKERS_STUB = [
  "export class WorkerEntrypoint { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }",
  "export class DurableObject extends WorkerEntrypoint {}",
  "export class RpcTarget {}",
  "export const env = {};",
].join("\n");

const HOOKS = `export async function resolve(specifier, context, next) {
  if (specifier === "cloudflare:workers") {
    return { url: ${JSON.stringify(`data:text/javascript,${encodeURIComponent(WORKERS_STUB)}`)}, shortCircuit: true };
  }
  return next(specifier, context);
}`;

register(`data:text/javascript,${encodeURIComponent(HOOKS)}`);

/** The reference's public entry point, imported after the hook is in place. */
export const reference = await import("@cloudflare/codemode");

/** A runtime context for the reference's handle: no executions, no snippets. */
export const referenceContext = {
  exports: { CodemodeRuntime: class {} },
  facets: { get: () => ({ listSnippets: async () => [] }) },
};
