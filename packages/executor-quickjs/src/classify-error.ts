// What a failure of a pass is, as the model reads it: the sandbox's own errors (out of memory, stack
// overflow, the interrupt) told apart from what the program threw, and faults of the host layer.
import type { SandboxError } from "@codemode/core";
import {
  type ErrorInfo,
  errorInfoOf,
  mebibytes,
  messageOf,
  stackError,
  thrownError,
  timeoutError,
} from "@codemode/executor-kit";
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";

/** What the classification needs to know of the pass. */
export interface PassLimits {
  timeoutMs: number;
  memoryBytes: number;
  /** the interrupt handler stopped the program at the deadline */
  readonly timedOut: boolean;
  /** the instance's memory is close to its cap (a promise job may have been lost to OOM) */
  nearMemoryLimit(): boolean;
  /** called when the pass is found out of memory: its instance is not reused */
  onOutOfMemory(): void;
}

export function memoryError(limits: PassLimits): SandboxError {
  limits.onOutOfMemory();
  return {
    name: "RangeError",
    code: "MEMORY",
    message:
      `The code ran out of memory (limit ${mebibytes(limits.memoryBytes)}) and was stopped. ` +
      "Keep less in memory: page through results and keep only the fields you need.",
  };
}

/** What the sandbox says of a thrown value; `method` names an unknown method (`thrownError`). */
export type ThrownInfo = ErrorInfo & { method?: string };

/** A failure the sandbox reported (the program threw, or QuickJS stopped it), as a `SandboxError`. */
export function classifyError(info: ThrownInfo, limits: PassLimits): SandboxError {
  if (limits.timedOut) return timeoutError(limits.timeoutMs);
  if (info.name === "InternalError" && info.message === "out of memory") return memoryError(limits);
  if (
    (info.name === "InternalError" && info.message === "stack overflow") ||
    (info.name === "RangeError" && /call stack/i.test(info.message))
  ) {
    return stackError();
  }
  if (info.name === "InternalError" && info.message === "interrupted") {
    return timeoutError(limits.timeoutMs);
  }
  // QuickJS throws `null` when it cannot allocate the error, makes its InternalError without the
  // message it had no memory for, and an error it has no memory left to read comes back unreadable
  // or without its message: at the memory cap, each is the sandbox running out of memory.
  const partial = info.name === "InternalError" && info.message === "";
  if ((info.code === "NULL" || info.code === "UNREADABLE" || partial) && limits.nearMemoryLimit()) {
    return memoryError(limits);
  }
  // THROWN, or UNKNOWN_METHOD when the namespace's own error for a missing method ended the pass
  return thrownError(info);
}

/** An exception of the host layer (QuickJS's WebAssembly, not the program) that ended the pass. */
export function hostFault(error: unknown, limits: PassLimits): SandboxError {
  const info = errorInfoOf(error);
  if (info.name === "RangeError" && /call stack/i.test(info.message)) return stackError();
  if (/out of memory|\bOOM\b|Cannot enlarge memory/i.test(info.message)) return memoryError(limits);
  if (limits.timedOut) return timeoutError(limits.timeoutMs);
  // a WebAssembly trap (an access out of bounds, `unreachable`) of an instance at its memory cap is
  // QuickJS failing an allocation it did not check: the sandbox ran out of memory
  if (info.name === "RuntimeError" && limits.nearMemoryLimit()) {
    return memoryError(limits);
  }
  return {
    name: "InternalError",
    code: "THROWN",
    message: `The QuickJS sandbox failed and the run was stopped: ${info.name}: ${info.message}`,
  };
}

/** A syntax error with where it is, from the stack QuickJS gives it. */
export function syntaxError(info: ErrorInfo): SandboxError {
  const where = /codemode\.js:(\d+)(?::(\d+))?/.exec(info.stack ?? "");
  let location = "";
  if (where) {
    const line = Number(where[1]);
    // the program is evaluated as `(${code}\n)`: the first line is shifted by the parenthesis
    const column = where[2] === undefined ? undefined : Number(where[2]) - (line === 1 ? 1 : 0);
    location = column === undefined ? ` (line ${line})` : ` (line ${line}, column ${column})`;
  }
  return { name: "SyntaxError", code: "SYNTAX_ERROR", message: `${info.message}${location}` };
}

/** Text of a dumped field: strings as they are, numbers and booleans spelled, anything else "". */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return `${value}`;
  return "";
}

/**
 * A thrown value read with `context.dump` (which reads it in the sandbox and hands the host JSON):
 * only strings, numbers and booleans of the result are used, nothing of it is converted or called.
 */
export function readError(context: QuickJSContext, handle: QuickJSHandle): ErrorInfo {
  try {
    const object = context.typeof(handle) === "object";
    const value: unknown = context.dump(handle);
    if (object && (typeof value !== "object" || value === null) && !isNull(context, handle)) {
      // the object could not be read as JSON (the sandbox ran out of memory doing it): its text
      return { name: "Error", message: textOf(value), code: "UNREADABLE" };
    }
    if (typeof value === "object" && value !== null) {
      const record = value as Record<string, unknown>;
      const info: ErrorInfo = {
        name: typeof record.name === "string" ? record.name : "Error",
        message: textOf(record.message),
        stack: typeof record.stack === "string" ? record.stack : undefined,
      };
      // `dump` copies an error's name, message and stack one by one and skips any it cannot (the
      // sandbox out of memory): an error without its message may be one read only in part
      if (typeof record.message !== "string") info.code = "UNREADABLE";
      return info;
    }
    // QuickJS throws `null` when it cannot even allocate the error object.
    if (value === null) return { name: "InternalError", message: "out of memory" };
    return { name: "Error", message: value === undefined ? "undefined" : textOf(value) };
  } catch (error) {
    return {
      name: "Error",
      message: `An unreadable error was thrown (${messageOf(error)}).`,
      code: "UNREADABLE",
    };
  }
}

function isNull(context: QuickJSContext, handle: QuickJSHandle): boolean {
  return context.sameValue(handle, context.null);
}
