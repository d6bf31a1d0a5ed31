// What the hostile-API tests share to call a connector directly: a fresh call context per call, and
// the error a call rejects with.
import type { CallContext } from "@codemode/core";

/** A call context of its own (sequence number, idempotency key, signal) for each call. */
export function contexts(executionId: string): () => CallContext {
  let seq = 0;
  return () => {
    seq++;
    return {
      executionId,
      seq,
      idempotencyKey: `${executionId}:${seq}`,
      signal: new AbortController().signal,
    };
  };
}

/** The error a promise rejects with; a resolution fails the test. */
export async function failure<T extends Error = Error>(promise: Promise<unknown>): Promise<T> {
  try {
    await promise;
  } catch (error) {
    return error as T;
  }
  throw new Error("expected a rejection");
}
