// runtime.tool() as an AI SDK tool, driven by the AI SDK's mock model. With the AI SDK's approvals
// (the default) a paused run is a tool approval request in the UI message stream; the person's
// answer, sent back as the AI SDK's chat does, gives the tool its real outcome and the model its next
// step. With `approvals: "host"` the tool returns the paused run for the host to decide.
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import {
  convertToModelMessages,
  generateText,
  readUIMessageStream,
  stepCountIs,
  streamText,
  type UIMessage,
} from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codeThenAnswerModel, repeatWhilePausedModel } from "../test/code-then-answer-model.ts";
import { issueTracker } from "../test/issue-tracker.ts";
import { withApprovalDetails } from "./ai.ts";
import {
  type CodemodeApprovalDescriptor,
  createCodemodeRuntime,
  functionConnector,
  memoryStore,
} from "./index.ts";

const CODE =
  'const open = await issues.list({}); const made = await Promise.all([issues.create({ title: "Triage" }), issues.create({ title: "Plan" })]); return { open: open.length, made: made.map((m) => m.number) };';

type ToolPart = {
  type: string;
  toolCallId: string;
  state: string;
  output?: unknown;
  preliminary?: boolean;
  approval?: { id: string; approved?: boolean; reason?: string; descriptor?: unknown };
};

/** One request of a chat: the route's streamText, its UI message stream read as the chat reads it. */
async function chatTurn(
  runtime: ReturnType<typeof issueTracker>["runtime"],
  model: ReturnType<typeof codeThenAnswerModel>["model"],
  messages: UIMessage[],
) {
  await runtime.rejectDenied(messages);
  const result = streamText({
    model,
    tools: { codemode: runtime.tool() },
    messages: await convertToModelMessages(messages),
    stopWhen: stepCountIs(3),
  });
  const last = messages[messages.length - 1];
  const stream = result
    .toUIMessageStream({
      originalMessages: messages,
    })
    .pipeThrough(withApprovalDetails(runtime));
  let message: UIMessage | undefined;
  const seen: ToolPart[][] = [];
  for await (const snapshot of readUIMessageStream({
    stream,
    ...(last?.role === "assistant" ? { message: last } : {}),
  })) {
    message = snapshot;
    seen.push(snapshot.parts.filter((part) => part.type === "tool-codemode") as ToolPart[]);
  }
  if (!message) throw new Error("no assistant message");
  return { message, seen };
}

/** What the AI SDK's chat does on `addToolApprovalResponse`. */
function answer(message: UIMessage, approved: boolean, reason?: string): UIMessage {
  return {
    ...message,
    parts: message.parts.map((part) => {
      const tool = part as unknown as ToolPart;
      return tool.state === "approval-requested"
        ? ({
            ...tool,
            state: "approval-responded",
            approval: { ...tool.approval, approved, ...(reason ? { reason } : {}) },
          } as unknown as typeof part)
        : part;
    }),
  };
}

/** The approval descriptor of the last approval request in an assistant message. */
function descriptorOf(message: UIMessage): CodemodeApprovalDescriptor {
  const requested = message.parts.filter(
    (part) => (part as unknown as ToolPart).state === "approval-requested",
  );
  const last = requested.at(-1) as unknown as ToolPart;
  return (last.approval as { descriptor: CodemodeApprovalDescriptor }).descriptor;
}

const user = (text: string): UIMessage => ({
  id: "u1",
  role: "user",
  parts: [{ type: "text", text }],
});

describe("runtime.tool() with the AI SDK's approvals", () => {
  it("asks in the chat, runs what the person approved, and the model reads the real outcome", async () => {
    const { runtime, created } = issueTracker();
    const { model, prompts } = codeThenAnswerModel(CODE, "Both issues are open now.");
    const first = await chatTurn(runtime, model, [user("Open triage and planning issues.")]);
    const requested = first.message.parts.find(
      (part) => (part as unknown as ToolPart).state === "approval-requested",
    ) as unknown as ToolPart;
    expect(requested).toBeDefined();
    const descriptor = requested.approval?.descriptor as CodemodeApprovalDescriptor;
    // the request shows every call the run waits for, with its exact input; none ran yet
    expect(descriptor.pending).toEqual([
      expect.objectContaining({
        seq: 1,
        connector: "issues",
        method: "create",
        args: { title: "Triage" },
      }),
      expect.objectContaining({
        seq: 2,
        connector: "issues",
        method: "create",
        args: { title: "Plan" },
      }),
    ]);
    expect(created).toEqual([]);
    expect(prompts).toHaveLength(1);

    const approved = answer(first.message, true);
    const second = await chatTurn(runtime, model, [
      user("Open triage and planning issues."),
      approved,
    ]);
    const done = second.message.parts.find(
      (part) => (part as unknown as ToolPart).state === "output-available",
    ) as unknown as ToolPart;
    expect(done.output).toMatchObject({ status: "completed", result: { open: 2, made: [11, 12] } });
    expect(created).toEqual(["Triage", "Plan"]);
    // progress came first, as preliminary results, then the outcome
    expect(second.seen.flat().some((part) => part.preliminary === true)).toBe(true);
    // the model's next step read the outcome, and answered
    expect(JSON.stringify(prompts[1])).toContain('"status":"completed"');
    expect(second.message.parts.at(-1)).toMatchObject({
      type: "text",
      text: "Both issues are open now.",
    });
    expect((await runtime.execution(descriptor.executionId))?.status).toBe("completed");

    // the same answer sent again runs nothing twice
    await chatTurn(runtime, model, [user("Open triage and planning issues."), approved]);
    expect(created).toEqual(["Triage", "Plan"]);
  });

  it("asks again in the chat when an approved run pauses at a later call, and runs each once", async () => {
    const { runtime, created } = issueTracker();
    const code =
      'const a = await issues.create({ title: "Triage" }); const b = await issues.create({ title: "Plan" }); return [a.number, b.number];';
    const model = repeatWhilePausedModel(code, "Both are open.");
    const ask = [user("Open two issues, one after the other.")];
    const first = await chatTurn(runtime, model.model, ask);
    const firstDescriptor = descriptorOf(first.message);
    expect(firstDescriptor.pending.map((call) => call.args)).toEqual([{ title: "Triage" }]);

    // approved: the run goes on to the second create, which pauses it again; the model, told so,
    // repeats the call, and the chat asks for the second create
    const second = await chatTurn(runtime, model.model, [...ask, answer(first.message, true)]);
    expect(created).toEqual(["Triage"]);
    const secondDescriptor = descriptorOf(second.message);
    expect(secondDescriptor.executionId).toBe(firstDescriptor.executionId);
    expect(secondDescriptor.pending.map((call) => call.args)).toEqual([{ title: "Plan" }]);

    const third = await chatTurn(runtime, model.model, [...ask, answer(second.message, true)]);
    expect(created).toEqual(["Triage", "Plan"]);
    expect(third.message.parts.at(-1)).toMatchObject({ type: "text", text: "Both are open." });
    expect(await runtime.execution(firstDescriptor.executionId)).toMatchObject({
      status: "completed",
      result: [11, 12],
    });
  });

  it("rejects the whole run when the person denies it, with the reason", async () => {
    const { runtime, created } = issueTracker();
    const { model, prompts } = codeThenAnswerModel(CODE, "Understood, nothing was opened.");
    const first = await chatTurn(runtime, model, [user("Open issues.")]);
    const requested = first.message.parts.find(
      (part) => (part as unknown as ToolPart).state === "approval-requested",
    ) as unknown as ToolPart;
    const { executionId } = (requested.approval as { descriptor: CodemodeApprovalDescriptor })
      .descriptor;
    const denied = answer(first.message, false, "not this week");
    const second = await chatTurn(runtime, model, [user("Open issues."), denied]);
    expect(created).toEqual([]);
    const run = await runtime.execution(executionId);
    expect(run).toMatchObject({ status: "rejected" });
    expect(run?.error).toContain("not this week");
    expect(await runtime.pending(executionId)).toEqual([]);
    expect(second.message.parts.at(-1)).toMatchObject({ text: "Understood, nothing was opened." });
    expect(JSON.stringify(prompts[1])).toContain("execution-denied");
    // an approval that arrives afterwards, from outside the chat, finds nothing to run
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "error" });
    expect(created).toEqual([]);
  });

  it("does not run a paused call when execute is reached without the person's answer", async () => {
    const { runtime, created } = issueTracker();
    const tool = runtime.tool();
    const options = { toolCallId: "t-1", messages: [] };
    expect(await tool.needsApproval?.({ code: CODE }, options)).toBe(true);
    const outputs = [];
    for await (const output of tool.execute({ code: CODE }, options)) outputs.push(output);
    // the request was never put to the person: said so, loudly, and the calls still wait
    expect(outputs.at(-1)).toMatchObject({ status: "error", code: "INVALID_CONFIG" });
    const { executionId } = outputs.at(-1) as { executionId: string };
    expect((await runtime.pending(executionId)).map((call) => call.args)).toEqual([
      { title: "Triage" },
      { title: "Plan" },
    ]);
    expect(created).toEqual([]);
  });

  it("refuses to start a run that could pause when its approval check never ran", async () => {
    const { runtime, created } = issueTracker();
    const tool = runtime.tool();
    const outputs = [];
    for await (const output of tool.execute({ code: CODE }, { toolCallId: "t-2", messages: [] })) {
      outputs.push(output);
    }
    expect(outputs.at(-1)).toMatchObject({ status: "error", code: "INVALID_CONFIG" });
    expect(await runtime.executions()).toEqual([]);
    expect(created).toEqual([]);
  });

  it("runs nothing again when the same call comes back after its run failed", async () => {
    const written: unknown[] = [];
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new QuickJSExecutor(),
      connectors: [
        functionConnector({
          name: "notes",
          methods: {
            add: {
              inputSchema: z.object({ text: z.string() }),
              execute: async (note) => written.push(note),
            },
            remove: { inputSchema: z.object({}), requiresApproval: true, execute: async () => 0 },
          },
        }),
      ],
    });
    const tool = runtime.tool();
    const code = 'await notes.add({ text: "once" }); throw new Error("later failure");';
    const options = { toolCallId: "f-1", messages: [] };
    const outcomes = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await tool.needsApproval?.({ code }, options)).toBe(false);
      for await (const output of tool.execute({ code }, options)) outcomes.push(output);
    }
    expect(outcomes.map((output) => output.status)).toEqual(["error", "error"]);
    expect(written).toEqual([{ text: "once" }]);
  });

  it("streams a run that cannot pause from execute, and keeps the model's reading compact", async () => {
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new QuickJSExecutor(),
      connectors: [
        functionConnector({
          name: "math",
          methods: { double: { inputSchema: z.number(), execute: async (n: number) => n * 2 } },
        }),
      ],
    });
    const tool = runtime.tool();
    const code =
      "let n = 1; for (let i = 0; i < 5; i++) n = await math.double(n); for (let i = 0; i < 80; i++) console.log('line', i); return n;";
    expect(await tool.needsApproval?.({ code }, { toolCallId: "s-1", messages: [] })).toBe(false);
    const outputs = [];
    for await (const output of tool.execute({ code }, { toolCallId: "s-1", messages: [] })) {
      outputs.push(output);
    }
    const final = outputs.at(-1);
    expect(final).toMatchObject({ status: "completed", result: 32 });
    expect(outputs.slice(0, -1).every((output) => output.status === "running")).toBe(true);
    expect(outputs.length).toBeGreaterThan(1);
    const seen = tool.toModelOutput({ output: final });
    const logs = (seen.value as { logs: string[] }).logs;
    expect(logs).toHaveLength(51);
    expect(logs[0]).toBe("… 30 earlier lines");
  });
});

describe("runtime.tool() with the host's approvals", () => {
  it("returns the paused run through generateText; the host approves it", async () => {
    const { runtime, created } = issueTracker();
    const code =
      'const open = await issues.list({}); if (open.length) await issues.create({ title: "Triage" }); return open.length;';
    const { model, prompts } = codeThenAnswerModel(code, "Waiting for your approval.");
    const tool = runtime.tool({ approvals: "host" });
    const result = await generateText({
      model,
      tools: { codemode: tool },
      prompt: "Open a triage issue if anything is open.",
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("Waiting for your approval.");
    const output = result.steps[0]?.toolResults[0]?.output as {
      status: string;
      executionId: string;
      pending: unknown[];
    };
    expect(output).toMatchObject({
      status: "paused",
      pending: [{ connector: "issues", method: "create", args: { title: "Triage" } }],
    });
    expect(created).toEqual([]);
    expect(JSON.stringify(prompts[1])).toContain('"status":"paused"');
    expect(tool.description).toContain("- issues: The team's issue tracker.");
    expect(await runtime.approve({ executionId: output.executionId })).toMatchObject({
      status: "completed",
      result: 2,
    });
    expect(created).toEqual(["Triage"]);
  });
});
