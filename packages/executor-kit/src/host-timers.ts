/** A host timer's handle: a number in browsers and workerd, an object in Node. */
export type TimerHandle = unknown;

/**
 * The host's `setTimeout` / `clearTimeout`, typed without Node, DOM or Workers types (the executors
 * build against none of them and run in all three).
 */
export const hostTimers = globalThis as unknown as {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
};
