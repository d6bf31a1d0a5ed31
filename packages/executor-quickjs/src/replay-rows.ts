// The recorded calls a replay pass answers inside the sandbox (see sandbox-replay.ts): which of them
// go in, as what text, and what the host tells the journal of the calls answered there.
import type { RecordedCall, ReplayHint } from "@codemode/core";
import type { QuickJSHandle } from "quickjs-emscripten-core";
import { hostCodec } from "./marshal.ts";
import type { Sandbox } from "./sandbox.ts";
import { REPLAY_KIND } from "./sandbox-replay.ts";

/**
 * A hint with fewer recorded calls is left to the host: compiling the replay part (about 1 ms) costs
 * more than the round trips it saves below this many.
 */
export const MIN_REPLAY_CALLS = 16;
/** Recorded calls answered in the sandbox are loaded into it up to this much text… */
const MAX_REPLAY_CHARS = 2 * 1024 * 1024;
/** …and at most this share of the sandbox's memory limit. */
const REPLAY_MEMORY_SHARE = 1 / 16;

/** The codec's text of `undefined`, which the rows write as null. */
const UNDEFINED_TEXT = hostCodec.encode(undefined);

/** namespace → method → its id in the rows */
export type ReplayIds = Map<string, Map<string, number>>;

export interface ReplayRows {
  /** the flat JSON array `REPLAY_KIND` describes */
  text: string;
  ids: ReplayIds;
  /** how many calls the text holds */
  count: number;
}

/**
 * The recorded calls the sandbox answers itself, and the id of each recorded namespace and method: a
 * prefix of the calls, at most `maxChars` of input and result text. Inputs and plain results are
 * codec text (JSON), embedded as they are.
 */
export function replayRows(calls: readonly RecordedCall[], maxChars: number): ReplayRows {
  const ids: ReplayIds = new Map();
  let text = "";
  let chars = 0;
  let count = 0;
  let nextId = 0;
  for (const { namespace, method, input, result } of calls) {
    if (typeof input !== "string" || typeof result !== "string") break;
    chars += input.length + result.length;
    if (chars > maxChars) break;
    let methods = ids.get(namespace);
    if (!methods) {
      methods = new Map();
      ids.set(namespace, methods);
    }
    let id = methods.get(method);
    if (id === undefined) {
      id = nextId++;
      methods.set(method, id);
    }
    let kind: number;
    let resultText: string;
    if (!result.includes('"$codemode"')) {
      kind = REPLAY_KIND.plainResult;
      resultText = result;
    } else if (result === UNDEFINED_TEXT) {
      kind = REPLAY_KIND.undefinedResult;
      resultText = "null";
    } else {
      kind = REPLAY_KIND.taggedResult;
      resultText = JSON.stringify(result);
    }
    const inputText = input === UNDEFINED_TEXT ? "null" : input;
    if (input === UNDEFINED_TEXT) kind += REPLAY_KIND.undefinedInput;
    text += `${text ? "," : ""}${id},${kind},${inputText},${resultText}`;
    count++;
  }
  return { text: `[${text}]`, ids, count };
}

/** A replay part loaded into a sandbox, with the host's own record of what went into it. */
export interface LoadedReplay {
  part: QuickJSHandle;
  ids: ReplayIds;
  /** how many recorded calls the part holds: it can never have answered more */
  count: number;
}

/**
 * Loads the hint's recorded calls into the sandbox's replay part, or returns undefined when the
 * sandbox answers none (fewer than `MIN_REPLAY_CALLS`, or a hint that cannot be read: it is
 * optional to use); every call then reaches the host, whose globals replay from the journal.
 */
export function loadReplay(
  sandbox: Sandbox,
  hint: ReplayHint | undefined,
  memoryBytes: number,
): LoadedReplay | undefined {
  if (!hint) return undefined;
  let rows: ReplayRows;
  try {
    rows = replayRows(hint.calls, Math.min(MAX_REPLAY_CHARS, memoryBytes * REPLAY_MEMORY_SHARE));
  } catch {
    return undefined;
  }
  if (rows.count < MIN_REPLAY_CALLS) return undefined;
  const { context } = sandbox;
  const part = sandbox.part("replay");
  const text = context.newString(rows.text);
  try {
    sandbox.call(sandbox.member("replay", "load"), part, text).dispose();
  } finally {
    text.dispose();
  }
  return { part, ids: rows.ids, count: rows.count };
}

/**
 * How many more calls the host tells the journal were answered in the sandbox, from the running total
 * the sandbox gives: the host's own count moves only forward, by whole calls, and never past the
 * calls it loaded. A total that breaks any of that (a sandbox that lies) moves nothing.
 */
export function replayAdvance(reported: number, total: unknown, loaded: number): number {
  if (typeof total !== "number" || !Number.isSafeInteger(total)) return 0;
  if (total <= reported || total > loaded) return 0;
  return total - reported;
}

/** `replay.wrap(method, id, fn)`: the method the program sees in a replay pass. */
export function wrapForReplay(
  sandbox: Sandbox,
  replay: LoadedReplay,
  namespace: string,
  method: string,
  fn: QuickJSHandle,
): QuickJSHandle {
  const { context } = sandbox;
  const name = context.newString(method);
  const id = context.newNumber(replay.ids.get(namespace)?.get(method) ?? -1);
  try {
    return sandbox.call(sandbox.member("replay", "wrap"), replay.part, name, id, fn);
  } finally {
    name.dispose();
    id.dispose();
  }
}

/**
 * Ends replay in the sandbox and reads how many calls it answered: data properties only, so no
 * sandbox code runs. Returns undefined if the instance failed under it.
 */
export function endReplay(sandbox: Sandbox, replay: LoadedReplay): number | undefined {
  const { context } = sandbox;
  try {
    context.setProp(replay.part, "ended", context.true);
    const answered = context.getProp(replay.part, "answered");
    const total = context.typeof(answered) === "number" ? context.getNumber(answered) : 0;
    answered.dispose();
    return total;
  } catch {
    return undefined;
  }
}

/**
 * Hands the program the oldest answer the replay part holds back, if one waits (read as a data
 * property: no sandbox code runs to learn it). Returns whether one was handed over; the host then
 * runs the program's jobs before it hands over the next, so each answer reaches an idle program.
 */
export function deliverReplayed(sandbox: Sandbox, replay: LoadedReplay): boolean {
  const { context } = sandbox;
  const waiting = context.getProp(replay.part, "waiting");
  const count = context.typeof(waiting) === "number" ? context.getNumber(waiting) : 0;
  waiting.dispose();
  if (!(count > 0)) return false;
  sandbox.call(sandbox.member("replay", "deliver"), replay.part).dispose();
  return true;
}
