import { CodemodeError } from "@codemode/core";
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/client";

/** A `tools/call` result as the SDK returns it (servers of 2024-10-07 answer with `toolResult`). */
export type ToolCallAnswer = Partial<CallToolResult> & { toolResult?: unknown };

function textOf(content: readonly ContentBlock[]): string {
  return content
    .filter((block): block is Extract<ContentBlock, { type: "text" }> => block.type === "text")
    .map((block) => block.text)
    .join("\n")
    .trim();
}

/**
 * What the sandbox gets from a tool call: `structuredContent` when there is some, a single text
 * block parsed as JSON when it is JSON and as a string otherwise, no value for empty content, and
 * any other content (several blocks, images, resources) as the array the server sent. A result with
 * `isError` becomes a `CodemodeError` ("CONNECTOR_FAILED") whose message is the server's.
 */
export function unwrapToolResult(answer: ToolCallAnswer, where: string): unknown {
  const content = Array.isArray(answer.content) ? answer.content : [];
  if (answer.isError === true) {
    const text = textOf(content);
    const message =
      text !== ""
        ? text
        : answer.structuredContent !== undefined
          ? JSON.stringify(answer.structuredContent)
          : `${where} failed and the server gave no message.`;
    throw new CodemodeError("CONNECTOR_FAILED", message, {
      details: {
        tool: where,
        content,
        ...(answer.structuredContent !== undefined
          ? { structuredContent: answer.structuredContent }
          : {}),
      },
    });
  }
  if (answer.structuredContent !== undefined) return answer.structuredContent;
  // the SDK gives a result without content an empty one
  if (content.length === 0 && "toolResult" in answer) return answer.toolResult;
  if (content.length === 0) return undefined;
  const [only] = content;
  if (content.length === 1 && only?.type === "text") {
    try {
      return JSON.parse(only.text) as unknown;
    } catch {
      return only.text;
    }
  }
  return content;
}
