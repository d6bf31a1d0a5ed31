import { CodemodeError, createValueCodec } from "@codemode/core";
import {
  createRenderer,
  isHostReply,
  sandboxBootstrap,
  sandboxCallQueue,
  sandboxEncoder,
  sandboxErrors,
  sandboxSource,
  sandboxTaggedWriter,
} from "@codemode/executor-kit";
import { frameRelay, workerHarness } from "./worker-harness.ts";

/** Blocks every resource; allows only the document's inline script and `eval` of the program. */
export const DEFAULT_CSP = "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval';";

/** Added when the policy says nothing about workers: the program runs in a worker made from a blob. */
const WORKER_DIRECTIVE = "worker-src blob:";

/** The kit's parts `workerHarness` takes, pasted as source in the order of its parameters. */
const HARNESS_PARTS = [
  sandboxBootstrap,
  sandboxEncoder,
  sandboxErrors,
  sandboxTaggedWriter,
  createValueCodec,
  createRenderer,
  isHostReply,
  sandboxCallQueue,
];
// Strict code throughout: no caller chain or stack frame hands the program a function of the
// harness (its own code, compiled with an indirect eval, keeps the mode it declares).
const WORKER_SOURCE = `"use strict";(${sandboxSource(workerHarness)})(${HARNESS_PARTS.map((part) => sandboxSource(part)).join(", ")});\n//# sourceURL=codemode-sandbox.js`;
const FRAME_SCRIPT = `"use strict";(${sandboxSource(frameRelay)})(${JSON.stringify(WORKER_SOURCE)});`;

/**
 * The document a server of `IframeSandboxExecutor`'s `sandboxUrl` serves (as `text/html`): the same
 * one the executor puts inline otherwise, with the policy `csp` (default `DEFAULT_CSP`). Serve the
 * text of the same version of this package as the page's executor.
 */
export function sandboxDocument(options: { csp?: string } = {}): string {
  const csp = options.csp ?? DEFAULT_CSP;
  const problem = cspProblem(csp);
  if (problem) throw new CodemodeError("INVALID_CONFIG", problem);
  return iframeDocument(csp);
}

/** Attribute-safe text. */
function escapeAttribute(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

function directivesOf(csp: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of csp.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    const key = name?.toLowerCase();
    if (key && !directives.has(key))
      directives.set(
        key,
        sources.map((s) => s.toLowerCase()),
      );
  }
  return directives;
}

/**
 * What is wrong with a CSP for the sandbox's document, or undefined: the frame's script is inline,
 * the program is compiled with `eval` (so the policy for scripts — `script-src`, else `default-src` —
 * must allow both), and it runs in a worker made from a `blob:` URL (a `worker-src` or `child-src`
 * the policy sets must allow that).
 */
export function cspProblem(csp: string): string | undefined {
  const directives = directivesOf(csp);
  const scripts = directives.get("script-src") ?? directives.get("default-src");
  if (scripts) {
    const missing = ["'unsafe-inline'", "'unsafe-eval'"].filter((s) => !scripts.includes(s));
    if (missing.length > 0) {
      return `The csp must let the sandbox run its inline script and compile the code: script-src needs ${missing.join(" and ")}.`;
    }
  }
  const workers = directives.get("worker-src") ?? directives.get("child-src");
  if (workers && !workers.includes("blob:")) {
    return "The csp must let the sandbox start its worker: worker-src (or child-src) needs blob:.";
  }
  return undefined;
}

/** The policy the sandbox's document carries: the given one, plus `worker-src blob:` when it has none. */
export function documentCsp(csp: string): string {
  const directives = directivesOf(csp);
  if (directives.has("worker-src") || directives.has("child-src")) return csp;
  const trimmed = csp.trim();
  return `${trimmed}${trimmed.endsWith(";") ? " " : "; "}${WORKER_DIRECTIVE};`;
}

/**
 * The sandbox's whole document (the iframe's `srcdoc`, or what a server of `sandboxUrl` serves): the
 * CSP first, then the frame's script.
 */
export function iframeDocument(csp: string): string {
  const script = FRAME_SCRIPT.replaceAll("</script", "<\\/script");
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeAttribute(documentCsp(csp))}"><script>${script}</script></head><body></body></html>`;
}
