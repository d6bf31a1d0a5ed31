import { createValueCodec, SANDBOX_EVALUATE_HOOK } from "@codemode/core";
import {
  createRenderer,
  sandboxBootstrap,
  sandboxCanonical,
  sandboxEncoder,
  sandboxErrors,
  sandboxSource,
} from "@codemode/executor-kit";

/** What the harness is told for one pass (the module `spec.js`). */
export interface HarnessSpec {
  /** namespace name → its host method names */
  namespaces: Record<string, string[]>;
  /** the in-sandbox timer, in ms */
  timeoutMs: number;
  /** console lines sent to the host at most; later ones are only counted */
  maxLogLines: number;
  /** a rendered console line is cut at this many characters */
  maxLineChars: number;
  /** whether `prelude.js` exists */
  prelude: boolean;
  /** calls an earlier pass recorded, answered here while the program makes them again in order */
  replay: Array<{ namespace: string; method: string; input: string; result: string }>;
}

/**
 * How a pass ended, as the harness reports it:
 * `["ok", encodedResult]`, `["thrown" | "unserializable", name, message, stack, code]`,
 * `["timeout"]`, `["load", "program" | "prelude", name, message, stack]`, `["problem", text]`.
 */
export type HarnessOutcome = string[];

/** Console output that travels with every message from the sandbox: new lines, and how many were dropped. */
export type LogBatch = [lines: string[], dropped: number] | undefined;

/** The modules of every pass that do not change: the harness and the names reserved for it. */
export const MODULE_NAMES = {
  harness: "harness.js",
  spec: "spec.js",
  program: "program.js",
  prelude: "prelude.js",
} as const;

/**
 * The main module of the loaded worker. At module evaluation it installs `console` and the namespace
 * globals (through the shared bootstrap; the value codec and renderer are pasted in as source, since
 * workerd compiles no code at run time). `evaluate(bridge, input?)` then imports the prelude and the
 * program, each a module of its own, so the program cannot see this module's bindings, runs it, and
 * reports the outcome with the logs. After the outcome, calls from the sandbox are refused here
 * already, before they reach the host.
 */
export const HARNESS_SOURCE = `import { WorkerEntrypoint } from "cloudflare:workers";
import spec from "./${MODULE_NAMES.spec}";

const sandboxBootstrap = ${sandboxSource(sandboxBootstrap)};
const sandboxEncoder = ${sandboxSource(sandboxEncoder)};
const sandboxErrors = ${sandboxSource(sandboxErrors)};
const createValueCodec = ${sandboxSource(createValueCodec)};
const createRenderer = ${sandboxSource(createRenderer)};
const sandboxCanonical = ${sandboxSource(sandboxCanonical)};
// built-ins replay compares inputs with, taken before the program runs
const canonical = sandboxCanonical(JSON.stringify, Object.keys, Array.isArray, Reflect.apply, Array.prototype.sort);
const parseJson = JSON.parse;
const replayTotal = spec.replay.length;
const LATE = "e" + JSON.stringify({
  name: "Error",
  code: "ABORTED",
  message: "The code finished before this call was made; it was not run. Await every call before returning.",
});

let bridge = null;
let started = false;
let finished = false;
let settle = () => {};
const pendingLines = [];
let sentLines = 0;
let droppedLines = 0;

function logs() {
  if (pendingLines.length === 0 && droppedLines === 0) return undefined;
  const batch = [pendingLines.splice(0), droppedLines];
  droppedLines = 0;
  return batch;
}

// Replay: the program's first calls, while they match the recorded ones in order, are answered from
// the journal here; the host hears how many with the next call that reaches it and at the end.
let replayed = 0;
let unsent = 0;
let replaying = spec.replay.length > 0;
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

const api = sandboxBootstrap(
  (namespace, method, input) => {
    if (finished) return LATE;
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
    return bridge.call(namespace, method, input, logs(), answeredHere());
  },
  (line) => {
    if (sentLines < spec.maxLogLines) {
      sentLines++;
      pendingLines.push(line);
    } else droppedLines++;
  },
  (...outcome) => {
    finished = true;
    settle(outcome);
  },
  () => {},
  (name) => (name === "codec" ? createValueCodec : createRenderer),
  JSON.stringify({ namespaces: spec.namespaces, timers: false, maxLineChars: spec.maxLineChars }),
  sandboxEncoder,
  sandboxErrors,
);

// The reply of \`evaluate\` is JSON text, written without prototype methods the program may have
// replaced: a string cannot be hijacked by a \`then\` or \`toJSON\` put on Object.prototype.
const quote = JSON.stringify;
const StringType = String;
function strings(list) {
  let out = "[";
  for (let index = 0; index < list.length; index++) {
    out += (index > 0 ? "," : "") + quote(StringType(list[index]));
  }
  return out + "]";
}
function reply(outcome) {
  const batch = logs();
  const logText = batch ? ',"logs":[' + strings(batch[0]) + "," + batch[1] + "]" : "";
  return '{"outcome":' + strings(outcome) + logText + ',"replayed":' + answeredHere() + "}";
}

const encode = api.encode;
const decode = api.decode;
const ErrorType = Error;
// codemode.run: the host runs the saved program in a worker of its own, on the same namespaces
Object.defineProperty(globalThis, "${SANDBOX_EVALUATE_HOOK}", {
  value: async (source, input) => {
    if (finished) throw new ErrorType("The code has finished; nothing more runs.");
    const reply = await bridge.evaluate(String(source), encode(input), logs(), answeredHere());
    if (reply[0] === "r") return decode(reply.slice(1));
    const detail = JSON.parse(reply.slice(1));
    const error = new ErrorType(detail.message);
    if (detail.name !== "Error") error.name = detail.name;
    if (detail.code) error.code = detail.code;
    throw error;
  },
  writable: false,
  enumerable: false,
  configurable: false,
});

export default class Harness extends WorkerEntrypoint {
  async evaluate(host, input) {
    if (started) throw new ErrorType("This sandbox runs one pass.");
    started = true;
    bridge = host;
    if (api.problem) return reply(["problem", api.problem]);
    const done = new Promise((resolve) => {
      settle = resolve;
    });
    const timer = setTimeout(() => {
      finished = true;
      settle(["timeout"]);
    }, spec.timeoutMs);
    let stage = "prelude";
    try {
      if (spec.prelude) await import("./${MODULE_NAMES.prelude}");
      stage = "program";
      const program = (await import("./${MODULE_NAMES.program}")).default;
      api.run(input === undefined ? program : () => program(decode(input)));
    } catch (error) {
      finished = true;
      const record = typeof error === "object" && error !== null ? error : { message: String(error) };
      settle(["load", stage, String(record.name ?? "Error"), String(record.message ?? ""), String(record.stack ?? "")]);
    }
    const outcome = await done;
    clearTimeout(timer);
    // nothing in this isolate holds the host's bridge once the pass is over
    bridge = null;
    return reply(outcome);
  }
}
`;

/** The module that holds the program: one function expression, on lines of its own. */
export function programModule(code: string): string {
  return `export default (\n${code}\n);\n`;
}

/** How many lines `programModule` puts before the code. */
export const PROGRAM_LINE_OFFSET = 1;
