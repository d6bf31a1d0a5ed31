import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

/**
 * Whether a tool needs a person's approval, read from its MCP annotations: `readOnlyHint: true`
 * never does, `destructiveHint: true` always does, `destructiveHint: false` (the server says the
 * tool only adds) does not, and a tool whose annotations say neither gets `unannotated`. That
 * default is `true` because MCP itself reads a missing `destructiveHint` as `true`.
 */
export function approvalFromAnnotations(
  annotations: ToolAnnotations | undefined,
  unannotated = true,
): boolean {
  if (annotations?.readOnlyHint === true) return false;
  if (annotations?.destructiveHint === true) return true;
  if (annotations?.destructiveHint === false) return false;
  return unannotated;
}
