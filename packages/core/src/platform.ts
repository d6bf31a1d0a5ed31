// The platform globals core uses, typed by hand: core compiles without Node, DOM or Workers types,
// and every runtime it targets has these.
import type { AbortSignalLike } from "./abort-signal.ts";

interface AbortControllerLike {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
}

declare const AbortController: { new (): AbortControllerLike };
declare const crypto: {
  getRandomValues<T extends Uint8Array>(array: T): T;
  subtle: { digest(algorithm: "SHA-256", data: Uint8Array): Promise<ArrayBuffer> };
};
declare const TextEncoder: { new (): { encode(text: string): Uint8Array } };
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(handle: unknown): void;

export function createAbortController(): AbortControllerLike {
  return new AbortController();
}

/** Sixteen random hex characters. */
export function randomHex(): string {
  return [...crypto.getRandomValues(new Uint8Array(8))]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
}

/** The SHA-256 digest of `text` (UTF-8), in hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Runs `callback` after `ms`; returns a function that cancels it. */
export function after(ms: number, callback: () => void): () => void {
  const handle = setTimeout(callback, ms);
  return () => clearTimeout(handle);
}

/**
 * Runs `task` after `firstMs`, then `intervalMs` after each run has settled (a failure is ignored),
 * until the returned function stops it; a run in flight when it stops is not followed by another.
 */
export function every(
  intervalMs: number,
  task: () => Promise<unknown>,
  firstMs = intervalMs,
): () => void {
  let stopped = false;
  let cancel = () => {};
  const schedule = (ms: number) => {
    cancel = after(ms, () => {
      void task()
        .catch(() => undefined)
        .finally(() => {
          if (!stopped) schedule(intervalMs);
        });
    });
  };
  schedule(firstMs);
  return () => {
    stopped = true;
    cancel();
  };
}
