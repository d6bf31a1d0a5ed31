/**
 * The source text of a self-contained function, as an expression to evaluate in a sandbox. Some
 * transpilers (esbuild with `keepNames`, used by tsx and wrangler) insert calls to a `__name` helper
 * into function bodies; a local no-op stands in for it.
 */
export function sandboxSource(fn: (...args: never[]) => unknown): string {
  return `(() => { const __name = (target) => target; return (${fn.toString()}); })()`;
}
