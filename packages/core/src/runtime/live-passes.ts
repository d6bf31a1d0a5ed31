const counts = new Map<string, number>();

/**
 * The runs that have a pass running in this process. It is module state on purpose: every runtime
 * over any store in this process sees it, so a runtime made for one request never expires a run
 * whose pass another runtime is still driving. Run ids are random, so runs of different journals do
 * not meet here.
 */
export const livePasses = {
  add(id: string): void {
    counts.set(id, (counts.get(id) ?? 0) + 1);
  },
  delete(id: string): void {
    const count = (counts.get(id) ?? 1) - 1;
    if (count > 0) counts.set(id, count);
    else counts.delete(id);
  },
  has(id: string): boolean {
    return counts.has(id);
  },
};
