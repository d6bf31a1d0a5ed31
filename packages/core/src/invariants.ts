// The guarantees of the durable runtime (ARCHITECTURE §7, the core README) and the checks that
// uphold them where a check can: each function here is the one place its rule is applied.
//
// 1. Consent: a gated call executes only after a person approved it, with the recorded input
//    decoded (`record-approval.ts` writes each call it covers `pending` → `approved`;
//    `decide-call.ts` takes it `approved` → `executing` once); a decision covers every pending call
//    it lets run.
// 2. At most once: without a crash each (executionId, seq) reaches its connector once: a call is
//    invoked only after a conditional write made its entry `executing` in this pass.
// 3. The journal records what happened: only the host writes entries; a step's value is recorded
//    only with the token handed out for it (`steps.ts`); any thrown value is recorded as a failure
//    (`errorRecordOf`).
// 4. Settled before reported: a pass reports only after every host call it started has settled and
//    been recorded (`pass-state.ts`, `settle`), and the run leaves `running` only then.
// 5. Replay equals live: the code sees the same value or the same error (`errorFromRecord` serves
//    both the live call and its replay).
// 6. Accountability: a rollback report names every call that reached a connector (`rollback.ts`).
// 7. Liveness: a running pass holds a lease on its run and renews it (every third of `leaseMs`);
//    expiry takes a running run only once its lease has lapsed (`listLapsed`, re-checked by the
//    conditional write that ends it), and no live pass in this process has it.
// 8. Bounded: every value the model sends has a limit, checked here before the host works on it.
import { CodemodeError } from "./codemode-error.ts";
import type { ErrorRecord } from "./sandbox-protocol.ts";
import { createValueCodec } from "./value-codec.ts";

/** Serialized text a recorded value may take, in characters (seed 000). */
export const MAX_RECORDED_LENGTH = 1_000_000;
/** Characters of an error message the journal keeps, on a live call and its replay alike. */
export const MAX_ERROR_MESSAGE_LENGTH = 10_000;
/** Characters of an error's data (its codec text) the journal keeps; more is left out. */
export const MAX_ERROR_DATA_LENGTH = 100_000;
/** Own data properties of an error the journal keeps, at most (the first ones). */
export const MAX_ERROR_DATA_KEYS = 100;
/** A pass's lease on its run lasts this long without renewal, unless the runtime says `leaseMs`. */
export const DEFAULT_LEASE_MS = 30_000;
/** How often a running pass renews its lease by default: a third of it. */
export const HEARTBEAT_MS = DEFAULT_LEASE_MS / 3;
/** A rollback's claim on a call (`reverting`) not renewed this long has no live rollback. */
export const LIVENESS_MS = 30_000;
/** The shortest and longest lease a runtime takes (`leaseMs`). */
export const MIN_LEASE_MS = 100;
export const MAX_LEASE_MS = 24 * 60 * 60 * 1000;

const codec = createValueCodec();

/** The error's message, whatever was thrown; never throws. */
export function messageOf(error: unknown): string {
  return errorRecordOf(error).message;
}

/**
 * The value's codec text (`known`, when the executor already had it), or a model-actionable error
 * when it cannot be recorded whole.
 */
export function encodeForJournal(value: unknown, what: string, known?: string): string {
  let text: string;
  try {
    text = known ?? codec.encode(value);
  } catch (error) {
    throw new CodemodeError(
      "NOT_SERIALIZABLE",
      `${what} could not be recorded (${messageOf(error)}). Return plain data: objects, arrays, strings, numbers, dates, maps, sets, bytes.`,
      { cause: error },
    );
  }
  if (text.length > MAX_RECORDED_LENGTH) {
    throw new CodemodeError(
      "TOO_LARGE",
      `${what} is too large to record (${text.length} characters, the limit is ${MAX_RECORDED_LENGTH}). Store large data elsewhere (a file, a blob store) and pass or return a small reference to it, such as its path or id.`,
      { details: { length: text.length } },
    );
  }
  return text;
}

/**
 * A string the model sent that the journal stores as text or the host computes on: at most `max`
 * characters, and text every store keeps as it is (no lone surrogate, no NUL).
 */
export function checkText(value: unknown, what: string, max: number): string {
  if (typeof value !== "string") {
    throw new CodemodeError("INVALID_INPUT", `${what} must be a string.`);
  }
  if (value.length > max) {
    throw new CodemodeError(
      "TOO_LARGE",
      `${what} is ${value.length} characters; the limit is ${max}. Use a shorter one.`,
      { details: { length: value.length, limit: max } },
    );
  }
  if (!wellFormed(value)) {
    throw new CodemodeError(
      "INVALID_INPUT",
      `${what} contains a lone surrogate or a NUL character, which the journal cannot store as it is.`,
    );
  }
  return value;
}

/** No lone surrogate and no NUL: what SQLite's UTF-8 text keeps losslessly. */
export function wellFormed(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is looked for
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/.test(
    text,
  );
}

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…`);

/** Reads a property of a value the model or a connector made; a throwing getter or trap reads as absent. */
function read(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

const OWN_FIELDS = new Set(["name", "message", "stack", "code", "cause", "__proto__"]);

/** The error's own enumerable data properties the codec can record, within the limit. */
function dataOf(error: object): Record<string, unknown> | undefined {
  let keys: string[];
  try {
    keys = Object.keys(error);
  } catch {
    return undefined;
  }
  const data: Record<string, unknown> = {};
  let count = 0;
  for (const key of keys) {
    if (OWN_FIELDS.has(key)) continue;
    const value = read(error, key);
    if (typeof value === "function" || typeof value === "symbol") continue;
    data[key] = value;
    if (++count >= MAX_ERROR_DATA_KEYS) break;
  }
  if (count === 0) return undefined;
  try {
    const text = codec.encode(data);
    if (text.length > MAX_ERROR_DATA_LENGTH) return undefined;
    // decoded again: what is recorded holds only what the codec keeps, live as on replay
    return codec.decode(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * What a thrown value of any shape is, as the journal records it and the code sees it: a name, a
 * message, a code and data when the value has them. Never throws (a Proxy, a throwing getter, an
 * object without a prototype, `null` all give a record).
 */
export function errorRecordOf(thrown: unknown): ErrorRecord {
  if ((typeof thrown === "object" && thrown !== null) || typeof thrown === "function") {
    const name = read(thrown, "name");
    const message = read(thrown, "message");
    const code = read(thrown, "code");
    const data = dataOf(thrown);
    return {
      name: typeof name === "string" && name ? cut(name, 200) : "Error",
      message:
        typeof message === "string"
          ? cut(message, MAX_ERROR_MESSAGE_LENGTH)
          : "A value that is not an Error was thrown.",
      ...(typeof code === "string" && code ? { code: cut(code, 200) } : {}),
      ...(data ? { data } : {}),
    };
  }
  let message: string;
  try {
    message = typeof thrown === "string" ? thrown : String(thrown);
  } catch {
    message = "A value that cannot be read was thrown.";
  }
  return { name: "Error", message: cut(message, MAX_ERROR_MESSAGE_LENGTH) };
}

/** The error the code sees for a failure: the same for a live call and for its replay. */
export function errorFromRecord(record: ErrorRecord): Error {
  const error = new Error(record.message) as Error & Record<string, unknown>;
  if (record.data) {
    for (const [key, value] of Object.entries(record.data)) {
      if (!OWN_FIELDS.has(key)) error[key] = value;
    }
  }
  if (record.name !== "Error") error.name = record.name;
  if (record.code !== undefined) error.code = record.code;
  return error;
}

/** The record's codec text, as the journal keeps it beside the message (always within the limit). */
export function encodeErrorRecord(record: ErrorRecord): string {
  return codec.encode(record);
}

/** The record an entry keeps: its codec text, or (an older journal) just the message. */
export function decodeErrorRecord(message: string, text: string | undefined): ErrorRecord {
  if (text !== undefined) {
    try {
      const record = codec.decode(text) as ErrorRecord;
      if (typeof record?.name === "string" && typeof record.message === "string") return record;
    } catch {
      // an older row: the message alone
    }
  }
  return { name: "Error", message };
}
