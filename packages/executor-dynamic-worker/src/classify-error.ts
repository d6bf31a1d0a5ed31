// What a failure of a pass is, as the model reads it: what the harness reported (the program threw,
// timed out, or its module could not load), a program acorn could not parse, and a loaded worker that
// failed outside the program, which workerd reports only in the words of its messages.
import type { SandboxError } from "@codemode/core";
import {
  type ErrorInfo,
  messageOf,
  type OkOutcome,
  outcomeError,
  type ProblemOutcome,
  timeoutError,
} from "@codemode/executor-kit";
import { PROGRAM_LINE_OFFSET } from "./harness-source.ts";
import type { InstrumentedProgram } from "./instrument-program.ts";
import type { HarnessOutcome } from "./worker-harness.ts";

/**
 * What workerd says of a worker that failed: it gives no codes, so its messages are all there is.
 * Each pattern is matched against the message of the error the loaded worker's RPC rejected with.
 */
const WORKERD_MESSAGES = {
  /** the prelude or the program module did not compile: the error, and where */
  syntax: /SyntaxError: ([^\n]*)(?:\n\s*at (program|prelude)\.js:(\d+):(\d+))?/,
  /** on Cloudflare, code that never yields runs until the platform's CPU limit ends its isolate */
  cpu: /exceeded (?:its )?cpu|cpu time limit/i,
  /** the isolate ran out of memory */
  memory: /memory limit|out of memory|exceeded memory|allocation failed/i,
  /** the pass waits on a promise that nothing can settle any more */
  hung: /had hung and would never generate a response/,
  /** the isolate is gone: crashed, killed, or out of resources */
  died: /memory limit|out of memory|exceeded (?:memory|cpu)|network connection lost|isolate|worker (?:was )?(?:killed|terminated|died)|internal error/i,
} as const;

/** The error of a pass that did not return (`timeoutMs`: the pass's limit, for the message). */
export function passError(
  outcome: Exclude<HarnessOutcome, OkOutcome | ProblemOutcome>,
  timeoutMs: number,
): SandboxError {
  if (outcome[0] === "timeout") return timeoutError(timeoutMs);
  if (outcome[0] !== "load") return outcomeError(outcome);
  const [, stage, name, message, stack] = outcome;
  return loadError(stage, { name, message, stack });
}

/** The prelude or the program failed to load: a syntax error, with the program's own line numbers. */
export function loadError(stage: "prelude" | "program", info: ErrorInfo): SandboxError {
  if (info.name !== "SyntaxError") {
    return {
      name: info.name,
      code: "THROWN",
      message: stage === "prelude" ? `The prelude failed: ${info.message}` : info.message,
    };
  }
  let location = "";
  const where = new RegExp(`${stage}\\.js:(\\d+)(?::(\\d+))?`).exec(info.stack ?? "");
  if (where) {
    const line = Number(where[1]) - (stage === "program" ? PROGRAM_LINE_OFFSET : 0);
    location = where[2] ? ` (line ${line}, column ${where[2]})` : ` (line ${line})`;
  }
  const message = `${info.message}${location}`;
  return {
    name: "SyntaxError",
    code: "SYNTAX_ERROR",
    message: stage === "prelude" ? `The prelude failed: ${message}` : message,
  };
}

/**
 * `SYNTAX_ERROR` for a program acorn could not parse, or that is not one function expression, with
 * the program's own line and column (`failure` is where in the program module it failed) and the
 * line's text.
 */
export function programSyntaxError(
  code: string,
  failure: Extract<InstrumentedProgram, { ok: false }>,
): SandboxError {
  const lines = code.split("\n");
  const line = Math.min(Math.max(failure.line - PROGRAM_LINE_OFFSET, 1), lines.length);
  // a position past the program's own lines (the closing of the module) is its end
  const column =
    failure.line - PROGRAM_LINE_OFFSET > lines.length
      ? (lines[line - 1] ?? "").length + 1
      : failure.column + 1;
  const text = (lines[line - 1] ?? "").trim();
  const excerpt =
    text.length > 0 ? `: ${text.length > 120 ? `${text.slice(0, 117)}...` : text}` : "";
  return {
    name: "SyntaxError",
    code: "SYNTAX_ERROR",
    message: `${failure.message} (line ${line}, column ${column})${excerpt}`,
  };
}

/** The loaded worker failed outside the program (it could not start, or its isolate died). */
export function crashError(error: unknown): SandboxError {
  const message = messageOf(error);
  const syntax = WORKERD_MESSAGES.syntax.exec(message);
  if (syntax) {
    const stage = syntax[2] === "prelude" ? "prelude" : "program";
    return loadError(stage, {
      name: "SyntaxError",
      message: syntax[1] ?? message,
      stack: syntax[3] ? `${stage}.js:${syntax[3]}:${syntax[4]}` : undefined,
    });
  }
  if (WORKERD_MESSAGES.cpu.test(message)) {
    return {
      name: "TimeoutError",
      code: "TIMEOUT",
      message:
        `The code used more CPU time than the platform allows and was stopped (${message}). ` +
        "Do less in one run (smaller loops) and make sure every loop ends.",
    };
  }
  if (WORKERD_MESSAGES.memory.test(message)) {
    return {
      name: "RangeError",
      code: "MEMORY",
      message:
        `The sandbox ran out of memory and was stopped (${message}). ` +
        "Hold less at once: process data in pages and keep only what the result needs.",
    };
  }
  if (WORKERD_MESSAGES.hung.test(message)) {
    return {
      name: "Error",
      code: "THROWN",
      message:
        "The code is waiting for a promise that can never settle: no host call and no timer is pending. " +
        "Make sure every promise it awaits resolves or rejects.",
    };
  }
  return {
    name: "Error",
    code: "THROWN",
    message: isolateDied(error)
      ? `The sandbox worker died and the run was stopped: ${message}`
      : `The sandbox worker failed and the run was stopped: ${message}`,
  };
}

/** Whether an error of a worker's RPC says that its isolate is gone (crashed, killed, out of resources). */
export function isolateDied(error: unknown): boolean {
  return WORKERD_MESSAGES.died.test(messageOf(error));
}
