import { CodemodeError } from "../../codemode-error.ts";
import type { CallContext } from "../../connector.ts";
import { after, createAbortController } from "../../platform.ts";
import type { ResolvedConnector } from "../context/configuration.ts";
import { idempotencyKey } from "../context/values.ts";
import type { PassState } from "./pass-state.ts";

/** What a connector is told of call `seq` of the pass: the run, the number, its key, the calls' signal. */
export function callContext(pass: PassState, seq: number): CallContext {
  const { executionId } = pass;
  return {
    executionId,
    seq,
    idempotencyKey: idempotencyKey(executionId, seq),
    signal: pass.callSignal,
  };
}

/**
 * Calls the connector with the signal of the pass's calls. A method with a time limit gets a signal
 * of its own that also fires when its time is up, and its call fails with `TIMEOUT` then.
 */
export function invokeConnector(
  pass: PassState,
  resolved: ResolvedConnector,
  method: string,
  input: unknown,
  seq: number,
): Promise<unknown> {
  const { original, definition } = resolved.methods.get(method) as {
    original: string;
    definition: { timeoutMs?: number };
  };
  const context = callContext(pass, seq);
  const { signal } = context;
  const timeoutMs = definition.timeoutMs;
  if (timeoutMs === undefined) return resolved.connector.invoke(original, input, context);
  return (async () => {
    const call = createAbortController();
    const onAbort = () => call.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    let cancel = () => {};
    try {
      return await Promise.race([
        resolved.connector.invoke(original, input, { ...context, signal: call.signal }),
        new Promise((_, reject) => {
          cancel = after(timeoutMs, () => {
            const error = new CodemodeError(
              "TIMEOUT",
              `${resolved.name}.${method} took longer than ${timeoutMs} ms and was abandoned.`,
            );
            call.abort(error);
            reject(error);
          });
        }),
      ]);
    } finally {
      cancel();
      signal.removeEventListener("abort", onAbort);
    }
  })();
}
