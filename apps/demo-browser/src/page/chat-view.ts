// Renders the chat's UI messages: the user's words, the model's text, and each `codemode` call with
// its code and what the page's run of it returned.
import { isToolUIPart, type UIMessage } from "ai";
import { h, pretty } from "./dom.ts";

type ToolPart = Extract<UIMessage["parts"][number], { toolCallId: string }>;

function toolCall(part: ToolPart): HTMLElement {
  const input = part.input as { code?: unknown } | undefined;
  const code = typeof input?.code === "string" ? input.code : pretty(part.input);
  let outcome: HTMLElement;
  if (part.state === "output-available") {
    const output = part.output as { result?: unknown; logs?: unknown } | undefined;
    const logs = Array.isArray(output?.logs) ? output.logs.map(String) : [];
    outcome = h(
      "div",
      {},
      h("div", { class: "label" }, "result"),
      h("pre", { class: "tool-result" }, pretty(output?.result)),
      logs.length > 0 && h("div", { class: "label" }, "logs"),
      logs.length > 0 && h("pre", { class: "tool-logs" }, logs.join("\n")),
    );
  } else if (part.state === "output-error") {
    outcome = h("pre", { class: "tool-error" }, part.errorText);
  } else if (part.state === "input-available") {
    outcome = h("span", { class: "empty" }, "running in the page…");
  } else {
    outcome = h("span", { class: "empty" }, part.state);
  }
  return h(
    "details",
    { class: "tool", open: true, "data-tool-call": part.toolCallId, "data-state": part.state },
    h("summary", {}, "codemode tool call, run in this page"),
    h("pre", { class: "tool-code" }, code),
    outcome,
  );
}

function messageElements(message: UIMessage): HTMLElement[] {
  const elements: HTMLElement[] = [];
  for (const part of message.parts) {
    if (part.type === "text") {
      if (!part.text) continue;
      const role = message.role === "user" ? "user" : "assistant";
      elements.push(h("div", { class: `msg ${role}`, "data-role": role }, part.text));
    } else if (isToolUIPart(part)) {
      elements.push(toolCall(part));
    }
  }
  return elements;
}

/** Replaces the log's contents with the conversation, and an error when the last request failed. */
export function renderChat(log: HTMLElement, messages: UIMessage[], error: Error | undefined) {
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  log.replaceChildren(
    ...messages.flatMap(messageElements),
    ...(error ? [h("div", { class: "msg error", "data-role": "error" }, error.message)] : []),
  );
  if (atBottom) log.scrollTop = log.scrollHeight;
}
