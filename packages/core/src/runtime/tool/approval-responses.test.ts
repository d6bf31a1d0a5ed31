import { describe, expect, it } from "vitest";
import { approvalResponsesOf, pausedRunOf } from "./approval-responses.ts";

const call = (toolCallId: string, code: string) => ({
  type: "tool-call",
  toolCallId,
  toolName: "codemode",
  input: { code },
});
const request = (approvalId: string, toolCallId: string, reason?: string) => ({
  type: "tool-approval-request",
  approvalId,
  toolCallId,
  ...(reason === undefined ? {} : { reason }),
});
const response = (approvalId: string, approved: boolean, reason?: string) => ({
  type: "tool-approval-response",
  approvalId,
  approved,
  ...(reason === undefined ? {} : { reason }),
});

describe("approvalResponsesOf", () => {
  it("reads the answers of model messages, tied to their tool call and its code; the last answer wins", () => {
    const messages = [
      { role: "assistant", content: [call("call_1", "A"), request("ap_1", "call_1", "asked")] },
      { role: "tool", content: [response("ap_1", true)] },
      { role: "tool", content: [response("ap_1", false, "changed my mind")] },
      // an answer to no request the conversation holds
      { role: "tool", content: [response("ap_unknown", true)] },
    ];
    expect(approvalResponsesOf(messages)).toEqual([
      {
        toolCallId: "call_1",
        approved: false,
        reason: "changed my mind",
        code: "A",
        requestReason: "asked",
      },
    ]);
  });

  it("reads the answers of UI message parts, denied ones too", () => {
    const messages = [
      {
        role: "assistant",
        parts: [
          {
            type: "tool-codemode",
            toolCallId: "call_2",
            state: "approval-responded",
            input: { code: "B" },
            approval: { id: "ap_2", approved: true, reason: "ok", requestReason: "shown" },
          },
          {
            type: "dynamic-tool",
            toolCallId: "call_3",
            state: "output-denied",
            input: { code: "C" },
            approval: { id: "ap_3", approved: false },
          },
        ],
      },
    ];
    expect(approvalResponsesOf(messages)).toEqual([
      { toolCallId: "call_2", approved: true, reason: "ok", code: "B", requestReason: "shown" },
      { toolCallId: "call_3", approved: false, code: "C" },
    ]);
  });

  it("decides nothing under a tool call id the conversation gives to two calls, and reads no other shape", () => {
    const messages = [
      { role: "assistant", content: [call("call_1", "A"), call("call_1", "B")] },
      { role: "assistant", content: [request("ap_1", "call_1")] },
      { role: "tool", content: [response("ap_1", true)] },
    ];
    expect(approvalResponsesOf(messages)).toEqual([]);
    expect(approvalResponsesOf("not a conversation")).toEqual([]);
    expect(approvalResponsesOf([null, 1, { content: "text" }])).toEqual([]);
  });

  it("reads a conversation again once it has grown", () => {
    const messages: unknown[] = [
      { role: "assistant", content: [call("call_1", "A"), request("ap_1", "call_1")] },
    ];
    expect(approvalResponsesOf(messages)).toEqual([]);
    messages.push({ role: "tool", content: [response("ap_1", true)] });
    expect(approvalResponsesOf(messages)).toEqual([
      { toolCallId: "call_1", approved: true, code: "A" },
    ]);
  });
});

describe("pausedRunOf", () => {
  it("finds the last result of a codemode call with this code, when it says its run is paused", () => {
    const result = (toolCallId: string, value: unknown) => ({
      type: "tool-result",
      toolCallId,
      toolName: "codemode",
      output: { type: "json", value },
    });
    const messages = [
      { role: "assistant", content: [call("call_1", "A"), call("call_2", "B")] },
      {
        role: "tool",
        content: [
          result("call_1", { status: "paused", executionId: "exec_1" }),
          result("call_2", { status: "paused", executionId: "exec_2" }),
        ],
      },
      { role: "assistant", content: [call("call_3", "B")] },
      { role: "tool", content: [result("call_3", { status: "completed", executionId: "exec_2" })] },
    ];
    expect(pausedRunOf(messages, "A")).toEqual({ toolCallId: "call_1", executionId: "exec_1" });
    expect(pausedRunOf(messages, "B")).toBeUndefined();
    expect(pausedRunOf(messages, "C")).toBeUndefined();
  });
});
