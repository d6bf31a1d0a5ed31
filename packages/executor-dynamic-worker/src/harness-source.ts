import { createValueCodec } from "@codemode/core";
import { SANDBOX_EVALUATE_HOOK } from "@codemode/core/internal";
import {
  createRenderer,
  sandboxBootstrap,
  sandboxCanonical,
  sandboxEncoder,
  sandboxErrors,
  sandboxSource,
  sandboxTaggedWriter,
} from "@codemode/executor-kit";

/** What the harness is told for one pass; it is written into the harness module itself. */
export interface HarnessSpec {
  /** namespace name → its host method names */
  namespaces: Record<string, string[]>;
  /** the in-sandbox timer, in ms */
  timeoutMs: number;
  /** console lines sent to the host at most; later ones are only counted */
  maxLogLines: number;
  /** console characters sent to the host at most; a rendered line is cut at this many too */
  maxLineChars: number;
  /** most host calls in flight at once; the host enforces it too */
  maxConcurrentCalls: number;
  /** most characters of the inputs of the calls in flight; the host enforces it too */
  maxInputCharsInFlight: number;
  /** most characters of one batch of calls made at once; a larger call goes on its own */
  maxBatchChars: number;
  /** whether `prelude.js` exists */
  prelude: boolean;
  /** whether `fetch()` goes to the host's outbound service (through the bridge, gated there) */
  outbound: boolean;
  /** the specifiers the program's `import()` may load (both `x.js` and `./x.js` for a module) */
  imports: string[];
  /** calls an earlier pass recorded, answered here while the program makes them again in order */
  replay: Array<{ namespace: string; method: string; input: string; result: string }>;
}

/**
 * How a pass ended, as the harness reports it:
 * `["ok", encodedResult]`, `["thrown" | "unserializable", name, message, stack, code]`,
 * `["timeout"]`, `["load", "program" | "prelude", name, message, stack]`, `["problem", text]`.
 */
export type HarnessOutcome = string[];

/** The modules of every pass that do not change: the harness and the names reserved for it. */
export const MODULE_NAMES = {
  harness: "harness.js",
  spec: "spec.js",
  program: "program.js",
  prelude: "prelude.js",
  /** the deadline the instrumented program checks (its ticks) and the harness arms */
  tick: "tick.js",
} as const;

/**
 * The main module of the loaded worker, before the pass's spec. At module evaluation it takes the
 * built-ins it needs and installs `console` and the namespace globals (through the shared bootstrap;
 * the value codec and renderer are pasted in as source, since workerd compiles no code at run time).
 * `evaluate(bridge, input?)` takes the bridge's methods (and lets go of the bridge itself) and arms
 * the deadline of the tick module (which the instrumented program imports) before any code of the
 * pass runs, imports the prelude and the program, each a module of its own, runs it, and reports the
 * outcome with the logs: a timeout once the deadline has passed, whatever the program did after.
 *
 * Against a program that rewrites built-ins: nothing of the host (the bridge stub, its methods, the
 * promises of their calls) is ever the receiver or the argument of a property lookup or call the
 * program can intercept after it started; messages to the host carry primitive strings and numbers
 * only; the spec lives in this module's scope, not in a module the program could import. After the
 * outcome, calls from the sandbox are refused here already, and the host refuses them too.
 */
const HARNESS_HEAD = `import { WorkerEntrypoint } from "cloudflare:workers";
import { arm } from "./${MODULE_NAMES.tick}";

const sandboxBootstrap = ${sandboxSource(sandboxBootstrap)};
const sandboxEncoder = ${sandboxSource(sandboxEncoder)};
const sandboxErrors = ${sandboxSource(sandboxErrors)};
const sandboxTaggedWriter = ${sandboxSource(sandboxTaggedWriter)};
const createValueCodec = ${sandboxSource(createValueCodec)};
const createRenderer = ${sandboxSource(createRenderer)};
const sandboxCanonical = ${sandboxSource(sandboxCanonical)};
// built-ins, taken before any code of the pass runs
const canonical = sandboxCanonical(JSON.stringify, Object.keys, Array.isArray, Reflect.apply, Array.prototype.sort);
const quote = JSON.stringify;
const parseJson = JSON.parse;
const StringType = String;
const ErrorType = Error;
const TypeErrorType = TypeError;
const RangeErrorType = RangeError;
const PromiseType = Promise;
const RequestType = Request;
const define = Object.defineProperty;
const deleteProperty = Reflect.deleteProperty;
const startTimer = setTimeout;
const queueTask = queueMicrotask;
const stopTimer = clearTimeout;
`;

const HARNESS_BODY = `
const replayTotal = spec.replay.length;
const LATE = "e" + quote({
  name: "Error",
  code: "ABORTED",
  message: "The code finished before this call was made; it was not run. Await every call before returning.",
});
const TOO_MANY_MESSAGE = "More than " + spec.maxConcurrentCalls + " host calls are in flight at once; await some before making more (batch them, e.g. " + spec.maxConcurrentCalls + " at a time).";
const TOO_MANY = "e" + quote({ name: "RangeError", code: "BUDGET_EXCEEDED", message: TOO_MANY_MESSAGE });

// The bridge's methods (RPC properties), taken in evaluate before the prelude and the program run;
// the bridge stub itself is kept nowhere.
let hostCall = null;
let hostCalls = null;
let hostReply = null;
let hostEvaluate = null;
let hostFetch = null;
let started = false;
let finished = false;
let settle = () => {};
let inFlight = 0;
// characters of the inputs of the queued and sent calls not answered yet
let charsInFlight = 0;

// The deadline of the pass, armed in evaluate before any code of the pass runs: whether it has
// passed (a tick of the program saw it, or the clock says so), and what makes every later tick throw.
let expired = () => false;
let halt = () => {};
// How the pass ended, first come first served. Past the deadline it is a timeout, whatever the
// program returned or threw since (it may have caught the ticks' error, or a getter of its result
// may have been stopped while the result was encoded); from then on every tick of the program throws.
function end(outcome) {
  if (finished) return;
  const late = expired();
  finished = true;
  halt();
  settle(late ? ["timeout"] : outcome);
}
// A call from the sandbox past the deadline ends the pass instead of reaching the host.
function overdue() {
  if (finished) return true;
  if (!expired()) return false;
  end(["timeout"]);
  return true;
}

// Console lines since the last message, as JSON text: no array the program's prototypes could reach.
let pendingText = "";
let pendingCount = 0;
let sentLines = 0;
let sentChars = 0;
let droppedLines = 0;
function logs() {
  if (pendingCount === 0 && droppedLines === 0) return undefined;
  const batch = "[[" + pendingText + "]," + droppedLines + "]";
  pendingText = "";
  pendingCount = 0;
  droppedLines = 0;
  return batch;
}

// Replay: the program's first calls, while they match the recorded ones in order, are answered from
// the journal here; the host hears how many with the next call that reaches it and at the end.
let replayed = 0;
let unsent = 0;
let replaying = replayTotal > 0;
function answeredHere() {
  const count = unsent;
  unsent = 0;
  return count;
}
function replayAnswer(namespace, method, input) {
  // the count first: an index past the end would be read from a prototype the program can change
  const next = replayed < replayTotal ? spec.replay[replayed] : undefined;
  if (
    next &&
    next.namespace === namespace &&
    next.method === method &&
    // the recorded input is canonical text: the same text is the same call, without parsing it
    (next.input === input || canonical(parseJson(next.input)) === canonical(parseJson(input)))
  ) {
    replayed++;
    unsent++;
    return "r" + next.result;
  }
  replaying = false;
  return undefined;
}

// A host call whose message or reply was lost on the way. Whether it ran is said as far as the
// harness can know: a reply lost on its way back belongs to a call that may have run.
function describeLoss(error, mayHaveRun) {
  let message = "";
  try {
    message = typeof error === "object" && error !== null && typeof error.message === "string" ? error.message : StringType(error);
  } catch {}
  const what = mayHaveRun
    ? "The host call's message or its reply was lost (the call may have run on the host; check before making it again): "
    : "The host could not be reached; the call was not run: ";
  return "e" + quote({ name: "Error", code: "ABORTED", message: what + message });
}

// A host call as a promise of this realm that never rejects: the RPC promise is only ever handed to
// harness callbacks, and counted while in flight.
function send(start) {
  inFlight++;
  return new PromiseType((resolve) => forward({ resolve }, start, false));
}

// The calls the program makes in one turn wait here until the turn's microtasks run, then go to the
// host in one message (more when their text is large): the host starts them together, as calls made
// at once are in-process, so a Promise.all of gated calls pauses with all of them waiting. A queued
// call counts as in flight from the start. The queue is a list of object literals whose properties
// are all their own: no setter or getter of a prototype the program changed is ever reached.
let queueHead = null;
let queueTail = null;
function enqueue(namespace, method, input) {
  inFlight++;
  charsInFlight += input.length;
  return new PromiseType((resolve) => {
    const item = { next: null, namespace: StringType(namespace), method: StringType(method), input: StringType(input), resolve };
    if (queueTail === null) {
      queueHead = item;
      queueTask(flush);
    } else queueTail.next = item;
    queueTail = item;
  });
}
function flush() {
  let item = queueHead;
  queueHead = null;
  queueTail = null;
  // consecutive calls go together while their text stays within a batch's limit; a call alone goes as \`call\`
  while (item !== null) {
    const head = item;
    item = item.next;
    // the usual case, one call awaited at a time: no batch text to write
    if (item === null) return dispatch(head, 1, "");
    let text = "[" + entryText(head);
    let size = 1;
    while (item !== null) {
      const entry = entryText(item);
      if (text.length + entry.length + 2 > spec.maxBatchChars) break;
      text += "," + entry;
      size++;
      item = item.next;
    }
    dispatch(head, size, text + "]");
  }
}
function entryText(item) {
  return "[" + quote(item.namespace) + "," + quote(item.method) + "," + quote(item.input) + "]";
}
// Every queued call is answered once, and leaves the count in flight then.
function answer(item, reply) {
  inFlight--;
  if (item.input !== undefined) charsInFlight -= item.input.length;
  item.resolve(reply);
}
// Answers a call with the reply of the RPC \`start\` makes (whose promise is only ever handed harness
// callbacks). A throw of \`start\` itself means nothing was sent, unless the call reached the host
// before (\`sentBefore\`: only its reply was to be asked for); a lost reply belongs to a call that may
// have run.
function forward(item, start, sentBefore) {
  let pending;
  try {
    pending = start();
  } catch (error) {
    return answer(item, describeLoss(error, sentBefore));
  }
  pending.then(
    (reply) => answer(item, typeof reply === "string" ? reply : describeLoss("an unreadable reply", true)),
    (error) => answer(item, describeLoss(error, true)),
  );
}
// The host starts every call of a batch before it answers any, and answers each on its own.
function dispatch(head, size, batchText) {
  const answerAll = (reply) => {
    let item = head;
    for (let index = 0; index < size; index++) {
      const next = item.next;
      answer(item, reply);
      item = next;
    }
  };
  if (finished || hostCall === null || hostCalls === null || hostReply === null) return answerAll(LATE);
  const text = logs();
  const count = answeredHere();
  if (size === 1) return forward(head, () => hostCall(head.namespace, head.method, head.input, text, count), false);
  const takeReply = hostReply;
  let started;
  try {
    started = hostCalls(batchText, text, count);
  } catch (error) {
    return answerAll(describeLoss(error, false));
  }
  started.then(
    (ticket) => {
      if (typeof ticket !== "number") return answerAll(describeLoss("an unreadable reply", true));
      let item = head;
      for (let index = 0; index < size; index++) {
        const next = item.next;
        const mine = ticket + index;
        forward(item, () => takeReply(mine), true);
        item = next;
      }
    },
    // the batch did not arrive: none of its calls ran
    (error) => answerAll(describeLoss(error, false)),
  );
}

const api = sandboxBootstrap(
  (namespace, method, input) => {
    if (overdue() || hostCall === null) return LATE;
    if (replaying) {
      let answer;
      try {
        answer = replayAnswer(namespace, method, input);
      } catch {
        // too deep to compare, or no memory left: the host decides, and replay ends
        replaying = false;
      }
      if (answer !== undefined) return answer;
    }
    if (inFlight >= spec.maxConcurrentCalls) return TOO_MANY;
    // the host refuses it too: refused here, it costs the host nothing
    // (JSON of strings only: no toJSON the program put on Object.prototype is reached)
    if (charsInFlight + input.length > spec.maxInputCharsInFlight) {
      return 'e{"name":"RangeError","code":"BUDGET_EXCEEDED","message":' + quote(
        namespace + "." + method + " was not called: with the calls still in flight its input would make " +
          (charsInFlight + input.length) + " characters of input waiting on the host, more than the " +
          spec.maxInputCharsInFlight + " one run may have in flight. Await calls before sending more, or send less at once.",
      ) + "}";
    }
    return enqueue(namespace, method, input);
  },
  (line) => {
    if (typeof line !== "string") return;
    if (sentLines < spec.maxLogLines && sentChars < spec.maxLineChars) {
      sentLines++;
      sentChars += line.length;
      pendingText += (pendingCount > 0 ? "," : "") + quote(line);
      pendingCount++;
    } else droppedLines++;
  },
  (...outcome) => end(outcome),
  () => {},
  // replies (replayed ones answered here at once too) reach the program one at a time, at idle
  (callback) => startTimer(callback, 0),
  (name) => (name === "codec" ? createValueCodec : createRenderer),
  quote({ namespaces: spec.namespaces, timers: false, maxLineChars: spec.maxLineChars }),
  sandboxEncoder,
  sandboxErrors,
  sandboxTaggedWriter,
);

// The reply of evaluate is JSON text, written without prototype methods the program may have
// replaced: a string cannot be hijacked by a then or toJSON put on Object.prototype.
function strings(list) {
  let out = "[";
  for (let index = 0; index < list.length; index++) {
    out += (index > 0 ? "," : "") + quote(StringType(list[index]));
  }
  return out + "]";
}
function reply(outcome) {
  const batch = logs();
  const logText = batch === undefined ? "" : ',"logs":' + quote(batch);
  return '{"outcome":' + strings(outcome) + logText + ',"replayed":' + answeredHere() + "}";
}

const encode = api.encode;
const decode = api.decode;

// codemode.run: the host runs the saved program in a worker of its own, on the same namespaces. The
// prelude takes this hook; it is removed before the program runs.
async function evaluateHook(source, input) {
  if (overdue() || hostEvaluate === null) throw new ErrorType("The code has finished; nothing more runs.");
  if (inFlight >= spec.maxConcurrentCalls) throw new RangeErrorType(TOO_MANY_MESSAGE);
  const text = encode(input);
  // calls the program made before it in this turn reach the host before it
  flush();
  const call = hostEvaluate;
  const batch = logs();
  const count = answeredHere();
  const answer = await send(() => call(StringType(source), text, batch, count));
  if (answer[0] === "r") return decode(answer.slice(1));
  const detail = parseJson(answer.slice(1));
  // the saved program ran until the pass's own deadline: the pass has timed out, caught or not
  if (detail.code === "TIMEOUT") end(["timeout"]);
  const error = new ErrorType(detail.message);
  if (detail.name !== "Error") error.name = detail.name;
  if (detail.code) error.code = detail.code;
  throw error;
}

// fetch(), when the host has an outbound service: the request goes through the bridge, which
// refuses it once the pass is over (the worker itself has no outbound at all).
async function outboundFetch(input, init) {
  if (overdue() || hostFetch === null) throw new TypeErrorType("The code has finished; the request was not sent.");
  if (inFlight >= spec.maxConcurrentCalls) throw new RangeErrorType(TOO_MANY_MESSAGE);
  const request = new RequestType(input, init);
  flush();
  const call = hostFetch;
  inFlight++;
  try {
    return await call(request);
  } finally {
    inFlight--;
  }
}

export default class Harness extends WorkerEntrypoint {
  async evaluate(host, input) {
    if (started) throw new ErrorType("This sandbox runs one pass.");
    started = true;
    const deadline = arm(spec.timeoutMs, spec.imports);
    expired = deadline.expired;
    halt = deadline.halt;
    // nothing of the pass has run yet: these lookups reach the stub itself
    hostCall = host.call;
    hostCalls = host.calls;
    hostReply = host.reply;
    hostEvaluate = host.evaluate;
    if (spec.outbound) hostFetch = host.fetch;
    host = null;
    if (api.problem) return reply(["problem", api.problem]);
    const done = new PromiseType((resolve) => {
      settle = resolve;
    });
    const timer = startTimer(() => end(["timeout"]), spec.timeoutMs);
    if (spec.outbound) {
      define(globalThis, "fetch", {
        value: function fetch(input, init) {
          return outboundFetch(input, init);
        },
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    let stage = "prelude";
    try {
      if (spec.prelude) {
        define(globalThis, "${SANDBOX_EVALUATE_HOOK}", {
          value: evaluateHook,
          writable: false,
          enumerable: false,
          configurable: true,
        });
        await import("./${MODULE_NAMES.prelude}");
      }
      deleteProperty(globalThis, "${SANDBOX_EVALUATE_HOOK}");
      stage = "program";
      const program = (await import("./${MODULE_NAMES.program}")).default;
      api.run(input === undefined ? program : () => program(decode(input)));
    } catch (error) {
      const record = typeof error === "object" && error !== null ? error : { message: StringType(error) };
      end(["load", stage, StringType(record.name ?? "Error"), StringType(record.message ?? ""), StringType(record.stack ?? "")]);
    }
    const outcome = await done;
    stopTimer(timer);
    // nothing in this isolate can reach the host once the pass is over
    hostCall = null;
    hostCalls = null;
    hostReply = null;
    hostEvaluate = null;
    hostFetch = null;
    return reply(outcome);
  }
}
`;

/** The harness module of one pass: its spec is a constant of the module, out of the program's reach. */
export function harnessSource(spec: HarnessSpec): string {
  return `${HARNESS_HEAD}const spec = ${JSON.stringify(spec)};\n${HARNESS_BODY}`;
}

/** What the program module has before the code. */
export const PROGRAM_PREFIX = "export default (\n";

/** The module that holds the program: one function expression, on lines of its own. */
export function programModule(code: string): string {
  return `${PROGRAM_PREFIX}${code}\n);\n`;
}

/** How many lines `programModule` puts before the code. */
export const PROGRAM_LINE_OFFSET = 1;
