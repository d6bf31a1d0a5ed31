import type { ExecuteResult, HostFunction, SandboxError } from "@codemode/core";

// Pieces the executor suite and its attack corpus share.

declare function setTimeout(callback: () => void, ms: number): unknown;

/** Set on the host's globalThis while a test probes whether the sandbox can see it. */
export const MARKER = "__codemodeConformanceHostMarker";
/** Generous limits: a loaded two-core machine runs several packages' tests at once. */
export const TIMEOUT_MS = 1_000;
export const MEMORY_BYTES = 32 * 1024 * 1024;
/**
 * The deadline of a pass whose point is not its deadline (memory, size, budgets): one only a hang
 * reaches. Such work takes QuickJS 10–20 s on a loaded CI machine; a deadline a few times that
 * ended it with TIMEOUT when the machine was busier still. A case that expects TIMEOUT sets its own.
 */
export const UNHURRIED_MS = 240_000;

/** Globals of Node, Deno and Bun that must not exist in a sandbox. */
export const HOST_GLOBALS = [
  "process",
  "require",
  "module",
  "exports",
  "Buffer",
  "global",
  "__dirname",
  "__filename",
  "setImmediate",
  "Deno",
  "Bun",
];

/** A host method that records each input and returns it. */
export function recorder(calls: unknown[]): HostFunction {
  return async (input) => {
    calls.push(input);
    return input;
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function describeValue(value: unknown): string {
  try {
    return value instanceof Error ? `${value.name}: ${value.message}` : JSON.stringify(value);
  } catch {
    return String(value);
  }
}

export function resultOf(outcome: ExecuteResult): unknown {
  if ("error" in outcome) {
    throw new Error(`expected a result, got the error ${describeValue(outcome.error)}`);
  }
  return outcome.result;
}

export function errorOf(outcome: ExecuteResult): SandboxError {
  if (!("error" in outcome)) {
    throw new Error(`expected an error, got the result ${describeValue(outcome.result)}`);
  }
  return outcome.error;
}
