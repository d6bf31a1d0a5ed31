// A tool's reply: compact JSON of at most the server's limit, as text and as structured content.
import type { PendingAction } from "@codemode/core";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { boundedJson } from "./bounded-json.ts";

/**
 * The most characters of JSON text one reply carries (about 25,000 tokens, what MCP clients commonly
 * accept from a tool). A longer reply is replaced by one that says so and what to do.
 */
export const MAX_REPLY_LENGTH = 100_000;
/** the smallest `maxReplyLength` a host may set: room for the too-large message itself */
export const MIN_REPLY_LENGTH = 1_000;
/** `structuredContent` carries values nested at most this deep (transports serialize it recursively) */
export const MAX_STRUCTURED_DEPTH = 100;
/** how much of an oversized error message a reply keeps */
const ERROR_PREVIEW = 2_000;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function preview(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…`;
}

/** the run's status and id, when the output has them: what every replacement reply keeps */
function runOf(output: unknown): Record<string, unknown> {
  if (!isRecord(output)) return {};
  const { status, executionId } = output;
  return {
    ...(typeof status === "string" ? { status } : {}),
    ...(typeof executionId === "string" ? { executionId } : {}),
  };
}

const waitingCall = ({ seq, connector, method }: PendingAction) => ({ seq, connector, method });

/**
 * What a reply says when the full one would be too large: the run's status and id, and what to do,
 * without the oversized part.
 */
function tooLarge(output: unknown, limit: number): Record<string, unknown> {
  const over = `more than ${limit} characters as JSON, the limit of this server's replies`;
  const run = runOf(output);
  if (!isRecord(output)) return { message: `The reply is too large (${over}).` };
  if (output.status === "completed") {
    return {
      ...run,
      message: `The run completed, but its result is too large to return (${over}). Its calls ran and are recorded: do not run the code again for its effects. To see the data, run code that returns only what you need: selected fields, a count, a slice or a summary.`,
    };
  }
  if (output.status === "paused" && Array.isArray(output.pending)) {
    return {
      ...run,
      pending: (output.pending as PendingAction[]).map(waitingCall),
      message: `The run is paused; the inputs of its waiting calls are too large to show (${over}).`,
    };
  }
  if (output.status === "error") {
    const error = typeof output.error === "string" ? output.error : "The run failed.";
    return {
      ...run,
      error: `${preview(error, ERROR_PREVIEW)} (The full reply is too large: ${over}.)`,
    };
  }
  if (Array.isArray(output.pending)) {
    return {
      pending: (output.pending as PendingAction[]).map((action) => ({
        executionId: action.executionId,
        ...waitingCall(action),
      })),
      message: `The inputs of the waiting calls are too large to show (${over}).`,
    };
  }
  return { ...run, message: `The reply is too large (${over}).` };
}

/**
 * The reply to a tool call: `output` as compact JSON text of at most `limit` characters (or, past
 * it, a shorter reply that says so), and the same value as `structuredContent`. A value nested
 * deeper than `MAX_STRUCTURED_DEPTH` is sent whole as text only; its structured content then gives
 * the run's status and id and says so.
 */
export function reply(output: unknown, limit: number, isError = false): CallToolResult {
  const encoded = boundedJson(output, limit) ??
    boundedJson(tooLarge(output, limit), limit) ??
    boundedJson(
      { ...runOf(output), message: "The reply is too large for this server." },
      limit,
    ) ?? {
      text: '{"message":"The reply is too large for this server."}',
      depth: 1,
    };
  const { text, depth } = encoded;
  const structured =
    depth <= MAX_STRUCTURED_DEPTH
      ? (JSON.parse(text) as unknown)
      : {
          ...runOf(output),
          message: `The reply nests deeper than ${MAX_STRUCTURED_DEPTH} levels, too deep for structured content: the text content has it whole.`,
        };
  return {
    content: [{ type: "text", text }],
    ...(isRecord(structured) ? { structuredContent: structured } : {}),
    ...(isError ? { isError: true } : {}),
  };
}
