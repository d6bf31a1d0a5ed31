import { type AbortSignalLike, CodemodeError, type SandboxError } from "@codemode/core";

/** A positive finite number, or `INVALID_CONFIG` naming the option. */
export function positive(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `${what} must be a positive finite number, got ${String(value)}.`,
    );
  }
  return value;
}

/** A positive safe integer, or `INVALID_CONFIG` naming the option. */
export function positiveInteger(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `${what} must be a positive integer, got ${String(value)}.`,
    );
  }
  return value;
}

/** Why a call past the limit of calls in flight was refused (said to the model). */
export function tooManyCallsMessage(namespace: string, method: string, most: number): string {
  return `${namespace}.${method} was not called: more than ${most} calls of this run would be in flight at once. Await calls before starting more (in batches of at most ${most} with Promise.all).`;
}

/**
 * Why a call was refused whose input, with the inputs of the calls still in flight, would be more
 * than the host holds for one run (said to the model).
 */
export function tooMuchInFlightMessage(
  namespace: string,
  method: string,
  chars: number,
  most: number,
): string {
  return `${namespace}.${method} was not called: with the calls still in flight its input would make ${chars} characters of input waiting on the host, more than the ${most} one run may have in flight. Await calls before sending more, or send less at once.`;
}

export function mebibytes(bytes: number): string {
  const value = bytes / (1024 * 1024);
  return Number.isInteger(value) ? `${value} MiB` : `${value.toFixed(1)} MiB`;
}

export function abortedError(signal: AbortSignalLike): SandboxError {
  const reason = signal.reason;
  const why =
    reason instanceof Error ? reason.message : typeof reason === "string" && reason ? reason : "";
  return {
    name: "AbortError",
    code: "ABORTED",
    message: why ? `The run was stopped from outside: ${why}` : "The run was stopped from outside.",
  };
}

export function timeoutError(timeoutMs: number): SandboxError {
  return {
    name: "TimeoutError",
    code: "TIMEOUT",
    message:
      `The code ran longer than ${timeoutMs} ms and was stopped. Do less in one run ` +
      "(fewer calls, smaller loops) and make sure every promise it awaits settles.",
  };
}

export function stackError(): SandboxError {
  return {
    name: "RangeError",
    code: "MEMORY",
    message:
      "The code exceeded the stack limit (recursion too deep) and was stopped. Use a loop instead of deep recursion.",
  };
}

/** The return value could not be encoded in the sandbox. */
export function unserializableResultError(message: string): SandboxError {
  return {
    name: "TypeError",
    code: "NOT_SERIALIZABLE",
    message:
      `The code's return value cannot leave the sandbox: ${message} Return plain data: ` +
      "objects, arrays, strings, numbers, booleans, null, undefined, Date, Map, Set, bigint or binary data.",
  };
}
