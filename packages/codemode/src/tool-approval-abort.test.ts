// runtime.tool() under AI SDK 7's `toolApproval`, with the AI SDK's own chat: the chat stops (its
// request aborts) while the approved pass runs, or the host cancels the run before the person's
// answer comes. Either way the run ends cancelled and no call of it starts after; a late answer to
// a cancelled run starts nothing.
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { convertToModelMessages, stepCountIs, streamText } from "ai";
import type { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ChatRoute, TestChat } from "../test/ai-sdk-chat.ts";
import { repeatWhilePausedModel } from "../test/code-then-answer-model.ts";
import { issueTracker } from "../test/issue-tracker.ts";
import { codemodeToolApproval, codemodeToolState } from "./ai.ts";
import {
  type CodemodeRuntime,
  createCodemodeRuntime,
  functionConnector,
  memoryStore,
} from "./index.ts";

/** The app's chat route, passing the request's signal to streamText as an app should. */
function route(runtime: CodemodeRuntime, model: MockLanguageModelV3): ChatRoute {
  return async (request) => {
    const { messages } = await request.json();
    const result = streamText({
      model,
      tools: { codemode: runtime.tool() },
      toolApproval: { codemode: codemodeToolApproval(runtime) } as never,
      messages: await convertToModelMessages(messages),
      stopWhen: stepCountIs(4),
      abortSignal: request.signal,
    });
    return result.toUIMessageStreamResponse({ originalMessages: messages });
  };
}

/** `mail.send` needs approval; the first send waits until released. */
function slowMail() {
  const sent: string[] = [];
  let release: () => void = () => {};
  let started: () => void = () => {};
  const firstStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const mail = functionConnector({
    name: "mail",
    methods: {
      send: {
        description: "Send a mail.",
        inputSchema: z.object({ to: z.string() }),
        requiresApproval: true,
        execute: async ({ to }) => {
          sent.push(`start ${to}`);
          if (sent.length === 1) {
            started();
            await gate;
          }
          sent.push(`done ${to}`);
          return { ok: true };
        },
      },
    },
  });
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new QuickJSExecutor(),
    connectors: [mail],
  });
  return { runtime, sent, release, firstStarted };
}

const TWO_SENDS =
  'await Promise.all([mail.send({ to: "a" }), mail.send({ to: "b" })]); await mail.send({ to: "c" }); return "sent";';

describe("cancellation under toolApproval in the AI SDK's chat", () => {
  it("the chat stops while the approved pass runs: the run ends cancelled, no call starts after", async () => {
    const { runtime, sent, release, firstStarted } = slowMail();
    const model = repeatWhilePausedModel(TWO_SENDS, "Sent.");
    const chat = new TestChat(route(runtime, model.model));
    await chat.say("Send the mails.");
    expect(chat.toolParts()[0]?.state).toBe("approval-requested");
    const [part] = chat.toolParts();
    void chat.addToolApprovalResponse({ id: part?.approval?.id as string, approved: true });
    await firstStarted;
    await chat.stop();
    // give the abort time to reach the pass, then let the call in flight end
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await chat.settled().catch(() => {});
    const [run] = await runtime.executions();
    expect(run?.status).toBe("cancelled");
    expect(run?.error).toContain("the AI SDK (it aborted the tool call)");
    // the call in flight ended; nothing started after the abort (not "c", not a second pass)
    expect(sent.filter((line) => line.startsWith("start c"))).toEqual([]);
    expect(sent.filter((line) => line.startsWith("start")).length).toBeLessThanOrEqual(2);
  });

  it("an answer that comes after runtime.cancel runs nothing and starts no new run", async () => {
    const { runtime, created } = issueTracker();
    const model = repeatWhilePausedModel(
      'await issues.create({ title: "Triage" }); return "done";',
      "Done.",
    );
    const chat = new TestChat(route(runtime, model.model));
    await chat.say("Open an issue.");
    const [part] = chat.toolParts();
    expect(part?.state).toBe("approval-requested");
    const [paused] = await runtime.executions();
    expect(
      await runtime.cancel({ executionId: paused?.id as string, reason: "changed my mind" }),
    ).toMatchObject({ cancelled: true });
    await chat.answerAll(true);
    expect(created).toEqual([]);
    const runs = await runtime.executions();
    expect(runs.map((run) => run.status)).toEqual(["cancelled"]);
    expect(codemodeToolState(chat.toolParts()[0])).toMatchObject({ done: true });
    // the same answer sent again, as a retried POST would: still nothing
    const last = chat.requests.at(-1);
    await route(
      runtime,
      model.model,
    )(
      new Request("https://app.example/api/chat", {
        method: "POST",
        body: JSON.stringify({ messages: last }),
      }),
    ).then((response) => response.text());
    expect(created).toEqual([]);
    expect((await runtime.executions()).map((run) => run.status)).toEqual(["cancelled"]);
  });

  it("an answer that comes after the run was deleted runs nothing and starts no new run", async () => {
    const { runtime, created } = issueTracker();
    const model = repeatWhilePausedModel(
      'await issues.create({ title: "Triage" }); return "done";',
      "Done.",
    );
    const chat = new TestChat(route(runtime, model.model));
    await chat.say("Open an issue.");
    const [paused] = await runtime.executions();
    expect(await runtime.cancel({ executionId: paused?.id as string })).toMatchObject({
      cancelled: true,
    });
    expect(await runtime.deleteExecution(paused?.id as string)).toBe(true);
    await chat.answerAll(true);
    expect(created).toEqual([]);
    expect((await runtime.executions()).filter((run) => run.status !== "cancelled")).toEqual([]);
  });
});
