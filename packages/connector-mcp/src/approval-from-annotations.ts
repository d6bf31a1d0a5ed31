import type { ToolAnnotations } from "@modelcontextprotocol/client";

/** How far a server's annotations are believed, and what a tool they say nothing about gets. */
export interface AnnotationTrust {
  /**
   * the host trusts this server's annotations (default false): only then can `readOnlyHint: true` or
   * `destructiveHint: false` spare a tool approval. The MCP specification says a client must treat
   * annotations from an untrusted server as untrusted.
   */
  trusted?: boolean;
  /** approval for a tool whose annotations decide nothing (default true) */
  unannotated?: boolean;
}

/**
 * Whether a tool needs a person's approval, read from its MCP annotations. `destructiveHint: true`
 * always asks, whatever else they say (a hint may only make a tool safer to run). From a trusted
 * server, `readOnlyHint: true` and `destructiveHint: false` (the tool only adds) do not ask; from any
 * other server they decide nothing. A tool whose annotations decide nothing gets `unannotated`, `true`
 * by default, as MCP itself reads a missing `destructiveHint` as `true`.
 */
export function approvalFromAnnotations(
  annotations: ToolAnnotations | undefined,
  trust: AnnotationTrust = {},
): boolean {
  const unannotated = trust.unannotated ?? true;
  if (annotations?.destructiveHint === true) return true;
  if (trust.trusted !== true) return unannotated;
  if (annotations?.readOnlyHint === true) return false;
  if (annotations?.destructiveHint === false) return false;
  return unannotated;
}
