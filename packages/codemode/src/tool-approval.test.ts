// runtime.tool() under AI SDK 7's `toolApproval`, end to end with the AI SDK's own chat (an
// AbstractChat over DefaultChatTransport, a route that calls streamText and answers with its UI
// message stream): codemodeToolApproval(runtime) asks only when a run paused at calls that need
// approval, once per pause, with those calls as the request's reason; the setups that would leave a
// run paused with nobody asked fail loudly, naming the fix; a run that paused again reads as
// waiting. AI SDK 7 only (AI SDK 6 has no toolApproval; tool-chat.test.ts runs on both).
import {
  tool as aiTool,
  convertToModelMessages,
  type ModelMessage,
  stepCountIs,
  streamText,
  type ToolApprovalConfiguration,
  type ToolSet,
} from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ChatRoute, TestChat } from "../test/ai-sdk-chat.ts";
import { repeatWhilePausedModel } from "../test/code-then-answer-model.ts";
import { issueTracker } from "../test/issue-tracker.ts";
import { codemodeToolApproval, codemodeToolState, withApprovalDetails } from "./ai.ts";
import type { CodemodeApprovalDescriptor, CodemodeRuntime } from "./index.ts";

type Approval = (runtime: CodemodeRuntime) => ToolApprovalConfiguration<ToolSet, never> | undefined;

/** The app's chat route, as its README writes it for AI SDK 7. */
function route(
  runtime: CodemodeRuntime,
  model: MockLanguageModelV3,
  toolApproval: Approval = (it) => ({ codemode: codemodeToolApproval(it) }),
): ChatRoute {
  return async (request) => {
    const { messages } = await request.json();
    await runtime.rejectDenied(messages);
    const result = streamText({
      model,
      tools: { codemode: runtime.tool() },
      toolApproval: toolApproval(runtime) as never,
      messages: await convertToModelMessages(messages),
      stopWhen: stepCountIs(4),
    });
    return result.toUIMessageStreamResponse({ originalMessages: messages });
  };
}

const TWO_TOGETHER =
  'const open = await issues.list({}); const made = await Promise.all([issues.create({ title: "Triage" }), issues.create({ title: "Plan" })]); return { open: open.length, made: made.map((m) => m.number) };';
const ONE_AFTER_ANOTHER =
  'const a = await issues.create({ title: "Triage" }); const b = await issues.create({ title: "Plan" }); return [a.number, b.number];';
const READ_ONLY = "const open = await issues.list({}); return open.length;";

describe("toolApproval: { codemode: codemodeToolApproval(runtime) } in the AI SDK's chat", () => {
  it("asks once, with the waiting calls as the request's reason, and runs what was approved once", async () => {
    const { runtime, created } = issueTracker();
    const model = repeatWhilePausedModel(TWO_TOGETHER, "Both issues are open.");
    const chat = new TestChat(route(runtime, model.model));
    await chat.say("Open triage and planning issues.");
    const [card] = chat.toolParts();
    expect(card?.state).toBe("approval-requested");
    // the calls, each with its exact input: no wrapper on the stream, no program to read
    expect(card?.approval?.requestReason).toMatch(
      /^Approve these 2 calls of codemode run exec_\w+:\n#1 issues\.create\(\{"title":"Triage"\}\)\n#2 issues\.create\(\{"title":"Plan"\}\)$/,
    );
    expect(card?.approval?.descriptor).toBeUndefined();
    expect(codemodeToolState(card)).toMatchObject({ status: "awaiting-approval", done: false });
    expect(created).toEqual([]);

    await chat.answerAll(true);
    expect(created).toEqual(["Triage", "Plan"]);
    const parts = chat.toolParts();
    expect(parts).toHaveLength(1);
    expect(parts[0]?.state).toBe("output-available");
    expect(codemodeToolState(parts[0])).toMatchObject({
      status: "completed",
      done: true,
      result: { open: 2, made: [11, 12] },
    });
    expect(chat.lastText()).toBe("Both issues are open.");
    // one question for one pause: the chat sent the message, then the answer
    expect(chat.requests).toHaveLength(2);
  });

  it("asks nothing for a run that needs no approval", async () => {
    const { runtime } = issueTracker();
    const model = repeatWhilePausedModel(READ_ONLY, "Two are open.");
    const chat = new TestChat(route(runtime, model.model));
    await chat.say("How many issues are open?");
    const parts = chat.toolParts();
    expect(parts.map((part) => part.state)).toEqual(["output-available"]);
    expect(codemodeToolState(parts[0])).toMatchObject({ status: "completed", result: 2 });
    expect(chat.lastText()).toBe("Two are open.");
  });

  it("a run that pauses again reads as waiting, and the repeated call asks for the next call", async () => {
    const { runtime, created } = issueTracker();
    const model = repeatWhilePausedModel(ONE_AFTER_ANOTHER, "Both are open.");
    const chat = new TestChat(route(runtime, model.model));
    await chat.say("Open two issues, one after the other.");
    expect(chat.toolParts()[0]?.approval?.requestReason).toContain(
      '#0 issues.create({"title":"Triage"})',
    );
    // the first answer runs the first create; the run pauses at the second
    await chat.answerAll(true);
    expect(created).toEqual(["Triage"]);
    const [first, second] = chat.toolParts();
    // the AI SDK ends the first part output-available; what it holds is a run that waits
    expect(first?.state).toBe("output-available");
    expect(codemodeToolState(first)).toMatchObject({
      status: "paused",
      done: false,
      pending: [{ connector: "issues", method: "create", args: { title: "Plan" } }],
    });
    expect(second?.state).toBe("approval-requested");
    expect(second?.approval?.requestReason).toContain('#1 issues.create({"title":"Plan"})');
    expect(second?.approval?.requestReason).not.toContain("Triage");

    await chat.answerAll(true);
    expect(created).toEqual(["Triage", "Plan"]);
    expect(codemodeToolState(chat.toolParts()[1])).toMatchObject({
      status: "completed",
      result: [11, 12],
    });
    expect(chat.lastText()).toBe("Both are open.");
  });

  it("a denial rejects the run with the person's reason; nothing runs", async () => {
    const { runtime, created } = issueTracker();
    const model = repeatWhilePausedModel(TWO_TOGETHER, "Nothing was opened.");
    const chat = new TestChat(route(runtime, model.model));
    await chat.say("Open issues.");
    await chat.answerAll(false, "not this week");
    expect(created).toEqual([]);
    const [run] = await runtime.executions();
    expect(run).toMatchObject({ status: "rejected" });
    expect(run?.error).toContain("not this week");
    expect(codemodeToolState(chat.toolParts()[0])).toMatchObject({ status: "denied", done: true });
  });

  it("withApprovalDetails still adds the structured calls beside the reason", async () => {
    const { runtime } = issueTracker();
    const model = repeatWhilePausedModel(TWO_TOGETHER, "ok");
    const chat = new TestChat(async (request) => {
      const { messages } = await request.json();
      const result = streamText({
        model: model.model,
        tools: { codemode: runtime.tool() },
        toolApproval: { codemode: codemodeToolApproval(runtime) },
        messages: await convertToModelMessages(messages),
      });
      return new Response(
        result
          .toUIMessageStream({ originalMessages: messages })
          .pipeThrough(withApprovalDetails(runtime))
          .pipeThrough(
            new TransformStream({
              transform: (chunk, controller) =>
                controller.enqueue(`data: ${JSON.stringify(chunk)}\n\n`),
            }),
          )
          .pipeThrough(new TextEncoderStream()),
        { headers: { "content-type": "text/event-stream" } },
      );
    });
    await chat.say("Open issues.");
    const state = codemodeToolState(chat.toolParts()[0]);
    expect(state).toMatchObject({ status: "awaiting-approval" });
    const descriptor = (state as { descriptor: CodemodeApprovalDescriptor }).descriptor;
    expect(descriptor.pending.map((call) => call.args)).toEqual([
      { title: "Triage" },
      { title: "Plan" },
    ]);
    expect((state as { reason: string }).reason).toContain("#1 issues.create");
  });
});

// --- the other shapes of toolApproval ------------------------------------------------------------

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model whose first step makes these tool calls, and every later step says "done". */
function scriptedModel(calls: ReadonlyArray<{ id: string; tool: string; input: unknown }>) {
  let steps = 0;
  return new MockLanguageModelV3({
    doStream: async () => {
      const parts =
        steps++ === 0
          ? [
              ...calls.map((call) => ({
                type: "tool-call",
                toolCallId: call.id,
                toolName: call.tool,
                input: JSON.stringify(call.input),
              })),
              { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage },
            ]
          : [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "done" },
              { type: "text-end", id: "t" },
              { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
            ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }) as never,
      };
    },
  });
}

interface Request {
  approvalId: string;
  reason?: string;
  toolCall: { toolName: string };
}

async function turn(
  model: MockLanguageModelV3,
  tools: ToolSet,
  toolApproval: ToolApprovalConfiguration<ToolSet, never>,
  messages: ModelMessage[],
) {
  const result = streamText({ model, tools, toolApproval, messages, stopWhen: stepCountIs(3) });
  const requests: Request[] = [];
  const outputs: unknown[] = [];
  for await (const part of result.fullStream) {
    if (part.type === "tool-approval-request") requests.push(part as unknown as Request);
    if (part.type === "tool-result" && !(part as { preliminary?: boolean }).preliminary) {
      outputs.push(part.output);
    }
  }
  return { requests, outputs, response: (await result.response).messages };
}

describe("codemodeToolApproval in AI SDK 7's generic shape", () => {
  it("as the whole toolApproval, it decides codemode and keeps every other tool's needsApproval", async () => {
    const { runtime, created } = issueTracker();
    const echoed: string[] = [];
    const tools = {
      codemode: runtime.tool(),
      echo: aiTool({
        inputSchema: z.object({ text: z.string() }),
        needsApproval: true,
        execute: async ({ text }) => {
          echoed.push(text);
          return text;
        },
      }),
      clock: aiTool({ inputSchema: z.object({}), execute: async () => "noon" }),
    } as ToolSet;
    const model = scriptedModel([
      { id: "a", tool: "codemode", input: { code: ONE_AFTER_ANOTHER } },
      { id: "b", tool: "echo", input: { text: "hi" } },
      { id: "c", tool: "clock", input: {} },
    ]);
    const first = await turn(model, tools, codemodeToolApproval(runtime), [
      { role: "user", content: "go" },
    ]);
    expect(first.requests.map((request) => request.toolCall.toolName).sort()).toEqual([
      "codemode",
      "echo",
    ]);
    const codemode = first.requests.find((request) => request.toolCall.toolName === "codemode");
    expect(codemode?.reason).toContain('issues.create({"title":"Triage"})');
    expect(first.outputs).toEqual(["noon"]);
    expect(created).toEqual([]);
    expect(echoed).toEqual([]);
  });

  it("returned from the app's own function for codemode's calls, it asks with the calls", async () => {
    const { runtime, created } = issueTracker();
    const codemodeApproval = codemodeToolApproval(runtime);
    const model = scriptedModel([{ id: "a", tool: "codemode", input: { code: TWO_TOGETHER } }]);
    const first = await turn(
      model,
      { codemode: runtime.tool() },
      (options) =>
        options.toolCall.toolName === "codemode" ? codemodeApproval(options) : undefined,
      [{ role: "user", content: "go" }],
    );
    expect(first.requests).toHaveLength(1);
    expect(first.requests[0]?.reason).toContain("Approve these 2 calls of codemode run");
    const second = await turn(
      model,
      { codemode: runtime.tool() },
      (options) =>
        options.toolCall.toolName === "codemode" ? codemodeApproval(options) : undefined,
      [
        { role: "user", content: "go" },
        ...first.response,
        {
          role: "tool",
          content: [
            {
              type: "tool-approval-response",
              approvalId: first.requests[0]?.approvalId ?? "",
              approved: true,
            },
          ],
        },
      ],
    );
    expect(second.outputs).toEqual([
      expect.objectContaining({ status: "completed", result: { open: 2, made: [11, 12] } }),
    ]);
    expect(created).toEqual(["Triage", "Plan"]);
  });
});

describe("a toolApproval map that leaves codemode out", () => {
  it("keeps the tool's own needsApproval: it asks once the run paused, without a reason", async () => {
    const { runtime, created } = issueTracker();
    const model = repeatWhilePausedModel(TWO_TOGETHER, "Both are open.");
    const chat = new TestChat(route(runtime, model.model, () => ({ somethingElse: "denied" })));
    await chat.say("Open issues.");
    const [card] = chat.toolParts();
    expect(card?.state).toBe("approval-requested");
    expect(card?.approval?.requestReason).toBeUndefined();
    await chat.answerAll(true);
    expect(created).toEqual(["Triage", "Plan"]);
  });
});

describe("an approval setup that would leave a run paused with nobody asked fails loudly", () => {
  it("a generic toolApproval that returns undefined (the AI SDK docs' example): nothing runs, the output names the fix", async () => {
    const { runtime, created } = issueTracker();
    const model = repeatWhilePausedModel(TWO_TOGETHER, "It failed.");
    const chat = new TestChat(
      route(
        runtime,
        model.model,
        () =>
          ({ toolCall }) =>
            toolCall.toolName === "deleteEverything" ? "user-approval" : undefined,
      ),
    );
    await chat.say("Open issues.");
    const [part] = chat.toolParts();
    expect(part?.state).toBe("output-available");
    const state = codemodeToolState(part);
    expect(state).toMatchObject({ status: "error", done: true, code: "INVALID_CONFIG" });
    expect((state as { error: string }).error).toContain("codemodeToolApproval(runtime)");
    // not even the read ran: no run started that would wait with nobody asked
    expect(await runtime.executions()).toEqual([]);
    expect(created).toEqual([]);
  });

  it("{ codemode: 'user-approval' } asks about the program, then runs nothing and names the fix", async () => {
    const { runtime, created } = issueTracker();
    const model = repeatWhilePausedModel(READ_ONLY, "It failed.");
    const chat = new TestChat(route(runtime, model.model, () => ({ codemode: "user-approval" })));
    await chat.say("How many issues are open?");
    const [card] = chat.toolParts();
    // asked for a read-only program, with nothing to show but the code
    expect(card?.state).toBe("approval-requested");
    expect(card?.approval?.requestReason).toBeUndefined();
    await chat.answerAll(true);
    const state = codemodeToolState(chat.toolParts()[0]);
    expect(state).toMatchObject({ status: "error", code: "INVALID_CONFIG" });
    expect((state as { error: string }).error).toMatch(/asked before the code ran/);
    expect(await runtime.executions()).toEqual([]);
    expect(created).toEqual([]);
    // the model was told, and did not ask again
    expect(chat.toolParts()).toHaveLength(1);
  });

  it("an app rule that answers 'approved' over codemode's question runs no gated call", async () => {
    const { runtime, created } = issueTracker();
    const model = repeatWhilePausedModel(TWO_TOGETHER, "It failed.");
    const chat = new TestChat(
      route(runtime, model.model, (it) => {
        const codemodeApproval = codemodeToolApproval(it);
        // asks codemode, then overrides what it says
        return async (options) => {
          await codemodeApproval(options);
          return "approved" as const;
        };
      }),
    );
    await chat.say("Open issues.");
    const state = codemodeToolState(chat.toolParts().at(-1));
    expect(state).toMatchObject({ status: "error", code: "INVALID_CONFIG" });
    expect((state as { error: string }).error).toMatch(/without their answer/);
    expect(created).toEqual([]);
    // the run waits, as shown, for a decision of the host's
    const [run] = await runtime.executions();
    expect(run?.status).toBe("paused");
    expect((await runtime.pending(run?.id)).map((call) => call.args)).toEqual([
      { title: "Triage" },
      { title: "Plan" },
    ]);
  });
});

describe("what the request's reason shows", () => {
  it("every character of an input is one a person can see, and what JSON cannot hold is tagged", async () => {
    const { runtime } = issueTracker();
    const decide = codemodeToolApproval(runtime);
    const code =
      'return await issues.create({ title: "pay\\u202Emallory\\u2028#9 issues.list({})" });';
    const asked = await decide({ code }, { toolCallId: "r1", messages: [] });
    expect(asked).toMatchObject({ type: "user-approval" });
    const reason = (asked as { reason: string }).reason;
    expect(reason.split("\n")).toHaveLength(2);
    expect(reason).toContain("pay\\u202emallory\\u2028#9");
    expect(reason).not.toMatch(/[\u202E\u2028]/);
  });

  it("the revalidation the AI SDK makes on an answer asks nothing new and runs nothing", async () => {
    const { runtime, created } = issueTracker();
    const decide = codemodeToolApproval(runtime);
    const first = await decide({ code: TWO_TOGETHER }, { toolCallId: "v1", messages: [] });
    const again = await decide({ code: TWO_TOGETHER }, { toolCallId: "v1", messages: [] });
    expect(again).toEqual(first);
    expect(await runtime.executions()).toHaveLength(1);
    expect(created).toEqual([]);
  });
});
