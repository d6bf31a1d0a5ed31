import type { HostNamespaces } from "../../executor.ts";
import { checkText } from "../../invariants.ts";
import { knownEncodings } from "../../known-encodings.ts";
import {
  MAX_QUERY_LENGTH,
  MAX_SNIPPET_NAME_LENGTH,
  MAX_TARGET_LENGTH,
  PRELUDE_CHANNEL,
  type SnippetReply,
} from "../../sandbox-protocol.ts";
import type { Configuration } from "../context/configuration.ts";
import type { RunContext } from "../context/run-context.ts";
import { callConnector } from "./decide-call.ts";
import type { PassState } from "./pass-state.ts";
import { describeTarget, snippetCatalog, snippetFor } from "./snippets.ts";
import { decideStep, recordStep } from "./steps.ts";

/** Hears of each connector call of a pass once it has settled (progress for a person to watch). */
export type CallObserver = (call: { connector: string; method: string; failed: boolean }) => void;

const tell = (observer: CallObserver, call: Parameters<CallObserver>[0]) => {
  try {
    observer(call);
  } catch {
    // an observer only watches: its failure changes nothing
  }
};

/**
 * The host functions of one pass: every connector method, and the `codemode` SDK with the prelude's
 * channel. Each call is tracked by the pass, so the pass reports only once all have settled, and
 * every reply reaches the program in the order the calls were made (`PassState.inOrder`).
 */
export function hostGlobals(
  context: RunContext,
  pass: PassState,
  config: Configuration,
  onCall?: CallObserver,
): HostNamespaces {
  const globals: HostNamespaces = {};
  for (const resolved of config.connectors.values()) {
    const namespace: HostNamespaces[string] = {};
    for (const method of resolved.methods.keys()) {
      namespace[method] = (input) => {
        const reply: { text?: string } = {};
        const known = knownEncodings.takeInput(input);
        const promise = pass.inOrder(
          pass.track(callConnector(context, pass, resolved, method, input, known, reply)),
        );
        knownEncodings.noteReply(promise, reply);
        if (onCall) {
          const connector = resolved.name;
          promise.then(
            () => tell(onCall, { connector, method, failed: false }),
            () => tell(onCall, { connector, method, failed: true }),
          );
        }
        return promise;
      };
    }
    globals[resolved.name] = namespace;
  }
  // a connector that could not list is there with no methods: calling one fails, and says which
  for (const name of config.unavailable.keys()) globals[name] ??= {};
  // every reply of the SDK reaches the program in the order it was asked for, as calls' do: how
  // long a journal write or a search took never changes which call the program makes next
  const inOrder = <T>(reply: Promise<T>) => pass.inOrder(pass.track(reply));
  // a lookup is counted against the pass's budgets as it reaches the host, in the program's order,
  // and refused before any host work past them
  const lookup = <T>(kind: "search" | "describe" | "run", work: () => Promise<T>) =>
    inOrder(
      (async () => {
        pass.lookup(kind);
        return work();
      })(),
    );
  // a saved program is read and parsed once per pass, however often the program runs it: its
  // runs still count, one lookup each
  const savedPrograms = new Map<string, Promise<SnippetReply>>();
  const savedProgram = (input: unknown): Promise<SnippetReply> => {
    const name = (input as { name?: unknown } | null)?.name;
    if (typeof name !== "string" || name.length > MAX_SNIPPET_NAME_LENGTH) {
      return snippetFor(context.journal, config, input);
    }
    let reply = savedPrograms.get(name);
    if (!reply) {
      reply = snippetFor(context.journal, config, { name });
      savedPrograms.set(name, reply);
      // a read the store failed is not kept: the next run asks the journal again
      reply.catch(() => savedPrograms.delete(name));
    }
    return reply;
  };
  globals.codemode = {
    search: (query) =>
      lookup("search", async () => {
        const text = checkText(query ?? "", "A codemode.search query", MAX_QUERY_LENGTH);
        return (await snippetCatalog(context.journal, config)).search(text);
      }),
    describe: (target) =>
      lookup("describe", () =>
        describeTarget(
          context.journal,
          config,
          checkText(target ?? "", "A codemode.describe target", MAX_TARGET_LENGTH),
        ),
      ),
    [PRELUDE_CHANNEL.stepDecide]: (input) => inOrder(decideStep(context, pass, input)),
    [PRELUDE_CHANNEL.stepRecord]: (input) => inOrder(recordStep(context, pass, input)),
    [PRELUDE_CHANNEL.snippet]: (input) => lookup("run", () => savedProgram(input)),
  };
  return globals;
}
