/** The runs that have a pass running (and the reverts running), for one store in this process. */
export interface LivePasses {
  add(id: string): void;
  delete(id: string): void;
  has(id: string): boolean;
}

const scopes = new WeakMap<object, LivePasses>();

/**
 * The live passes of every runtime over `scope` in this process: the store's own object (a Durable
 * Object's `ctx.storage`, a database handle, a memory store), so a runtime made for one request
 * never expires a run whose pass another runtime over the same storage is still driving. A Durable
 * Object that is reset gets a new storage object, and with it no stale entries of passes that died
 * with the old one. Runs of other stores are kept apart by the scope; run ids are random besides.
 */
export function livePassesOf(scope: object): LivePasses {
  let live = scopes.get(scope);
  if (!live) {
    const counts = new Map<string, number>();
    live = {
      add(id) {
        counts.set(id, (counts.get(id) ?? 0) + 1);
      },
      delete(id) {
        const count = (counts.get(id) ?? 1) - 1;
        if (count > 0) counts.set(id, count);
        else counts.delete(id);
      },
      has(id) {
        return counts.has(id);
      },
    };
    scopes.set(scope, live);
  }
  return live;
}
