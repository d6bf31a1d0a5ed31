// The one protocol between the sandbox and the host, as far as core defines it: the `codemode` SDK
// the model's code may call, the host functions that only the prelude uses (and how each is bound to
// what the host handed out in the same pass), the messages they take and answer, and the limits on
// what the model may send through them. Executors carry these calls as they carry connector calls;
// nothing else crosses.

/** The members of the `codemode` global the model's code may use (seed 000). */
export const SDK_METHODS = ["search", "describe", "step", "run"] as const;

/**
 * Host functions the prelude calls and then removes from the `codemode` global, before the model's
 * code runs. The host does not rely on their being hidden: `stepRecord` takes only the token that
 * `stepDecide` handed out for that step in that pass, once.
 */
export const PRELUDE_CHANNEL = {
  stepDecide: "__step_decide",
  stepRecord: "__step_record",
  snippet: "__snippet",
} as const;

/** `codemode.step(name, fn)` asks whether the step replays. */
export interface StepDecideRequest {
  name: string;
}

/**
 * The recorded value, or the step's number and the token that alone may record its value. A
 * replayed step gets a token too: the prelude sends its record (which writes nothing) as a live step
 * does, so the step returns after the same host round trips live and on replay.
 */
export type StepDecideReply =
  | { replay: true; value: unknown; seq: number; token: string }
  | { replay: false; seq: number; token: string };

/** The value `fn` returned, for the step the token was handed out for. */
export interface StepRecordRequest {
  seq: number;
  token: string;
  value: unknown;
}

/**
 * The step's value as the journal recorded it: what the step returns on the live pass, as a replay
 * returns it, not the object `fn` returned (an Error keeps its name and message, an instance of a
 * class is a plain object, and nothing is the program's own object).
 */
export interface StepRecordReply {
  value: unknown;
}

/** `codemode.run(name, input)` asks for a snippet's code. */
export interface SnippetRequest {
  name: string;
}

/**
 * The host's answer to `codemode.run(name)`: the snippet's code; `unavailable` when it exists but a
 * connector it recorded is not configured now (`codemode.run` then resolves to `{ error }`, as seed
 * 000 has it); or `error` when it cannot be run at all (no such snippet, it does not parse), which
 * `codemode.run` throws.
 */
export type SnippetReply = { code: string } | { unavailable: string } | { error: string };

/**
 * A failure as the journal records it and as it crosses the boundary: what the code catches, on a
 * live call and on its replay alike. `data` holds the error's own data properties (an HTTP error's
 * `status`, a `CodemodeError`'s `details`) that the value codec can record.
 */
export interface ErrorRecord {
  name: string;
  message: string;
  code?: string;
  data?: Record<string, unknown>;
}

/** Characters of a step name. */
export const MAX_STEP_NAME_LENGTH = 1_000;
// Characters of a `codemode.search` query and of a `codemode.describe` target: the catalog's own
// bounds (it reads no more than these); the runtime refuses longer ones with a clear error.
export { MAX_QUERY_LENGTH, MAX_TARGET_LENGTH } from "@codemode/typegen";
/** Characters of a snippet name asked for by `codemode.run`. */
export const MAX_SNIPPET_NAME_LENGTH = 200;

/**
 * `limits.maxLookups` by default: how many times one pass may ask the host to look something up for
 * the program (`codemode.search`, `codemode.describe`, and the saved program `codemode.run` reads),
 * each a read of the journal's snippets and a ranking or a parse, and with `search.embed` a request
 * to the embedding model. Past it, each is refused with `BUDGET_EXCEEDED` before any host work.
 */
export const DEFAULT_MAX_LOOKUPS = 256;
/**
 * `limits.maxSnippetRuns` by default: how many saved programs one pass may start with
 * `codemode.run`, however they nest (each start is a lookup, so this bounds the nesting too). Past
 * it, `codemode.run` throws `BUDGET_EXCEEDED` before the host reads the snippet. The Dynamic Worker
 * executor bounds the same count itself and how deep they nest (4).
 */
export const DEFAULT_MAX_SNIPPET_RUNS = 16;

/**
 * The name of a sandbox global an executor defines when its sandbox cannot compile code at run time
 * (workerd forbids `eval`): `(source, input, seed) => Promise<result>` runs a saved program's source
 * (one function expression) with the same namespaces in the same pass, and returns what it returns.
 * The prelude takes it and removes it, as it does the channel's functions. `seed` is a string the
 * prelude drew from the run's generator for this saved program: where the executor runs it in a
 * sandbox of its own, that sandbox gets the same prelude with `seed` at `SANDBOX_SEED_HOOK`. Such an
 * executor keeps one order of calls for the pass (the host numbers calls as they reach it): the
 * calling sandbox sends nothing while the saved program runs, and waits for its result as for a
 * call's reply (in turn, timers held), so every pass numbers the calls the same way.
 */
export const SANDBOX_EVALUATE_HOOK = "__codemodeEvaluate";

/**
 * The name of a sandbox global an executor defines, before the prelude runs, in a sandbox of its own
 * that runs a saved program for the evaluate hook: the `seed` the hook was called with. The
 * prelude's determinism takes it and removes it, and draws from the run's seed and this one, so the
 * saved program's draws are its own (not its caller's again) and the same on every pass.
 */
export const SANDBOX_SEED_HOOK = "__codemodeSeed";

const { stepDecide, stepRecord, snippet } = PRELUDE_CHANNEL;

/**
 * The sandbox side of the `codemode` global: `step` runs its closure in the sandbox and has the host
 * record or replay the value (a replayed step runs its closure again, for the calls it makes and
 * what it changes, and returns the recorded value; a live step returns its value as recorded too);
 * `run` evaluates a saved snippet in the same pass, so its calls join
 * the run's numbering, or resolves to `{ error }` when a connector the snippet recorded is not
 * configured now. It keeps the channel's functions in its own block scope and deletes them from
 * the global before the model's code runs.
 */
export const SANDBOX_PRELUDE = `{
const evaluateHook = globalThis.${SANDBOX_EVALUATE_HOOK};
try { delete globalThis.${SANDBOX_EVALUATE_HOOK}; } catch {}
const decide = codemode.${stepDecide};
const record = codemode.${stepRecord};
const snippetOf = codemode.${snippet};
delete codemode.${stepDecide};
delete codemode.${stepRecord};
delete codemode.${snippet};
const TypeErrorType = TypeError;
const ErrorType = Error;
const evaluate = globalThis.eval;
const random = Math.random;
// a saved program run in a sandbox of its own draws from a seed of its own, drawn here in program order
const nestedSeed = () => random().toString(36).slice(2) + random().toString(36).slice(2) + random().toString(36).slice(2);
codemode.step = async (name, fn) => {
  if (typeof name !== "string" || typeof fn !== "function") {
    throw new TypeErrorType("codemode.step(name, fn) needs a name and a function.");
  }
  const decision = await decide({ name });
  if (decision.replay) {
    // the body runs again, so the calls it makes keep the numbers they had (they replay from the
    // journal) and what it changes in the program is changed again; the value is the recorded one,
    // returned after the same round trip a live step's record takes
    try { await fn(); } catch {}
    await record({ seq: decision.seq, token: decision.token, value: undefined });
    return decision.value;
  }
  // the value as recorded, as a replay returns it: not the object fn returned
  const recorded = await record({ seq: decision.seq, token: decision.token, value: await fn() });
  return recorded.value;
};
codemode.run = async (name, input) => {
  const found = await snippetOf({ name });
  if (found.unavailable) return { error: found.unavailable };
  if (found.error) throw new ErrorType(found.error);
  if (typeof evaluateHook === "function") return await evaluateHook(found.code, input, nestedSeed());
  const program = (0, evaluate)("(" + found.code + ")");
  return await program(input);
};
}`;
