/** Readings of the clock the probe makes at most: locally about 14,000 take a millisecond. */
const PROBE_READINGS = 50_000;

let moves: boolean | undefined;

/**
 * Whether `Date.now()` advances while code runs, which the runaway ticks need to see a deadline pass:
 * it does in local workerd (`wrangler dev`, tests), which enforces no CPU limit; on Cloudflare it
 * stands still until the next I/O, and the platform's CPU limit ends code that never yields. Probed
 * once per isolate, on the first call, by reading the clock until it moves: locally within a
 * millisecond; on Cloudflare all 50,000 readings (a few ms, once). Call it inside a request or a
 * Durable Object's event, never at a module's top level, where the clock stands still everywhere.
 */
export function clockMovesDuringCode(): boolean {
  if (moves === undefined) {
    const start = Date.now();
    let moved = false;
    for (let reading = 0; reading < PROBE_READINGS && !moved; reading++) {
      moved = Date.now() !== start;
    }
    moves = moved;
  }
  return moves;
}
