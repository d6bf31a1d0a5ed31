// The wire between a sandbox and its host, the same for every executor: what answers a call
// (`HostReply`, host to sandbox) and how a pass ended (`PassOutcome`, sandbox to host), and the
// calls a program made at once (`BatchedCall`, `NumberedCall`: JSON text the sandbox's
// `sandboxCallQueue` writes, read by the Dynamic Worker's bridge and the iframe's page). Replies and
// outcomes are tuples of strings, of a fixed length for each kind: Workers RPC and `postMessage` copy them for a
// few microseconds more than one string, with no prefix to add or slice off and no JSON of an error
// to write and parse; QuickJS's host reads them as they are; and the sandbox reads every item as an
// own index of an array it was handed, so no accessor a program put on `Array.prototype` or
// `Object.prototype` is reached (an absent field is "", never a missing index or property). No
// promise is ever settled with a tuple in a sandbox, since that looks `then` up on it (the
// bootstrap takes replies through a callback; Workers RPC returns them in an `RpcReply`).
//
// The sandbox is hostile: the host reads an outcome only through `readPassOutcome`, and a batch as
// host values parsed from its text, each entry's shape and types checked; it treats anything else as
// a break of the protocol.
import type { SandboxError } from "@codemode/core";
import { thrownError } from "./sandbox-error.ts";
import { stackError, unserializableResultError } from "./sandbox-errors.ts";

/** A call that returned: the value codec's text of its result. */
export type OkReply = readonly [kind: "ok", result: string];

/**
 * A call that failed: the error's name and message, its `code` ("" when it has none) and the value
 * codec's text of its own data properties (`data`, an HTTP error's `status`; "" when it has none).
 */
export type ErrorReply = readonly [
  kind: "error",
  name: string,
  message: string,
  code: string,
  data: string,
];

/** The answer to one call of the sandbox (`callHost` makes it). */
export type HostReply = OkReply | ErrorReply;

/**
 * A `HostReply` as a Workers RPC method returns it. workerd settles the sandbox's promise of the
 * call with the copy it makes there, and settling a promise with an object looks `then` up on it: a
 * bare tuple would reach a `then` the program put on `Array.prototype`, which could then choose
 * the reply its harness reads. The envelope's own `then` (undefined, so not a thenable) ends that
 * lookup at the envelope; the reply is its own property too.
 */
export interface RpcReply {
  readonly then: undefined;
  readonly reply: HostReply;
}

/**
 * One call of a batch: the calls a program made in one turn, sent to the host together as JSON text
 * of an array of these (`sandboxCallQueue` writes it). The Dynamic Worker's bridge answers a batch
 * with a ticket per call.
 */
export type BatchedCall = readonly [namespace: string, method: string, input: string];

/** A call of a batch to a host that answers each call by its id (the iframe's page). */
export type NumberedCall = readonly [id: number, namespace: string, method: string, input: string];

/** The program returned: the value codec's text of its result. */
export type OkOutcome = readonly [kind: "ok", result: string];
/**
 * The program threw (or its promise rejected): what the sandbox's `describe` said of the error
 * (`Described`), the last item the `[namespace, method]` JSON of the sandbox's own unknown-method
 * error, else "".
 */
export type ThrownOutcome = readonly [
  kind: "thrown",
  name: string,
  message: string,
  stack: string,
  code: string,
  method: string,
];
/** The program returned a value that cannot be encoded: what `describe` said of the encoder's error. */
export type UnserializableOutcome = readonly [
  kind: "unserializable",
  name: string,
  message: string,
  stack: string,
  code: string,
];
/** The sandbox's own timer, or its deadline, ended the pass. */
export type TimeoutOutcome = readonly [kind: "timeout"];
/** The prelude or the program could not be loaded (a module that failed to evaluate). */
export type LoadOutcome = readonly [
  kind: "load",
  stage: "prelude" | "program",
  name: string,
  message: string,
  stack: string,
];
/** The prelude or the program could not be compiled. */
export type SyntaxOutcome = readonly [
  kind: "syntax",
  stage: "prelude" | "program",
  message: string,
];
/** The configuration cannot work (a namespace would hide a built-in): nothing of the pass ran. */
export type ProblemOutcome = readonly [kind: "problem", text: string];

/** How a pass ended, as the sandbox reports it. */
export type PassOutcome =
  | OkOutcome
  | ThrownOutcome
  | UnserializableOutcome
  | TimeoutOutcome
  | LoadOutcome
  | SyntaxOutcome
  | ProblemOutcome;

export type OutcomeKind = PassOutcome[0];

/** The outcomes of the given kinds. */
export type OutcomeOf<K extends OutcomeKind> = Extract<PassOutcome, readonly [K, ...string[]]>;

/** How many items an outcome of each kind has, its kind included. */
const OUTCOME_LENGTH: Readonly<Record<OutcomeKind, number>> = {
  ok: 2,
  thrown: 6,
  unserializable: 5,
  timeout: 1,
  load: 5,
  syntax: 3,
  problem: 2,
};

/** The reply to a call that returned. */
export function okReply(result: string): OkReply {
  return ["ok", result];
}

/** The reply to a call that failed; a field the error does not have is "". */
export function errorReply(info: {
  name: string;
  message: string;
  code?: string | undefined;
  data?: string | undefined;
}): ErrorReply {
  return ["error", info.name, info.message, info.code || "", info.data || ""];
}

/** A reply in the envelope a Workers RPC method returns it in. */
export function rpcReply(reply: HostReply): RpcReply {
  // biome-ignore lint/suspicious/noThenProperty: an own `then` that is not a function is the point
  return { then: undefined, reply };
}

/**
 * Whether `value` is a well-formed `HostReply`. Self-contained, so a sandbox can paste it beside
 * its harness (`sandboxSource`) and call it with an `Array.isArray` it took before the program ran;
 * it reads only `length` and the indexes of what `isArray` accepted.
 */
export function isHostReply(
  value: unknown,
  isArray: (value: unknown) => value is unknown[],
): value is HostReply {
  if (!isArray(value)) return false;
  if (value[0] === "ok") return value.length === 2 && typeof value[1] === "string";
  return (
    value[0] === "error" &&
    value.length === 5 &&
    typeof value[1] === "string" &&
    typeof value[2] === "string" &&
    typeof value[3] === "string" &&
    typeof value[4] === "string"
  );
}

/**
 * What a sandbox reported as its outcome, if it is one of `kinds` and well formed: an array of the
 * kind's length, every item a string, a stage that is `prelude` or `program`. Answers a copy (the
 * sender keeps no hold on it), or undefined for anything else: a break of the protocol, which the
 * executor handles as its own (the pass fails, or the message is ignored).
 */
export function readPassOutcome<K extends OutcomeKind>(
  value: unknown,
  kinds: readonly K[],
): OutcomeOf<K> | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const kind = value[0] as unknown;
  if (typeof kind !== "string" || !(kinds as readonly string[]).includes(kind)) return undefined;
  if (value.length !== OUTCOME_LENGTH[kind as OutcomeKind]) return undefined;
  const copy: string[] = [];
  for (let index = 0; index < value.length; index++) {
    const item = value[index] as unknown;
    if (typeof item !== "string") return undefined;
    copy.push(item);
  }
  if ((kind === "load" || kind === "syntax") && copy[1] !== "prelude" && copy[1] !== "program") {
    return undefined;
  }
  return copy as unknown as OutcomeOf<K>;
}

/**
 * The `SandboxError` of a program that threw, or whose result cannot be encoded: a recursion too
 * deep is `MEMORY` (`stackError`), an unencodable result `NOT_SERIALIZABLE`, anything else
 * `thrownError` (`THROWN`, or `UNKNOWN_METHOD`).
 */
export function outcomeError(outcome: ThrownOutcome | UnserializableOutcome): SandboxError {
  const [kind, name, message, stack, code] = outcome;
  if (kind === "unserializable" && code === "NOT_SERIALIZABLE") {
    return unserializableResultError(message);
  }
  if ((name || "Error") === "RangeError" && /call stack/i.test(message)) return stackError();
  return thrownError({
    name,
    message,
    stack,
    code,
    method: kind === "thrown" ? outcome[5] : "",
  });
}
