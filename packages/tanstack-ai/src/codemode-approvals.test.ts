import type { CodemodeRuntime } from "@codemode/core";
import { chat, type ModelMessage, type TextOptions } from "@tanstack/ai";
import { describe, expect, it } from "vitest";
import {
  CODEMODE_DECISION_EVENT,
  type CodemodeApprovalsOptions,
  codemodeApproval,
  codemodeApprovals,
  codemodeTool,
  PAUSED_MESSAGE,
} from "./index.ts";
import { collectRun, payloadOf, resumeItem } from "./test/chat-run.ts";
import { crmRuntime } from "./test/crm.ts";
import { ScriptedAdapter, type ScriptedTurn, toolResult } from "./test/scripted-adapter.ts";

/** A call's digest, as an interrupt shows it. */
const DIGEST = expect.stringMatching(/^[0-9a-f]{64}$/);

const BILL_ADA = `async () => {
  const customer = await crm.find_customer({ name: "Ada" });
  const sent = await crm.send_invoice({ customer: customer.id, amount: customer.balance });
  return sent.invoice;
}`;

/** Two invoices, one after the other: the run pauses at the first, then again at the second. */
const TWO = `async () => {
  const a = await crm.send_invoice({ customer: "cus_ada", amount: 10 });
  const b = await crm.send_invoice({ customer: "cus_bob", amount: 20 });
  return [a.invoice, b.invoice];
}`;

const callCode = (code: string): ScriptedTurn => ({
  toolCalls: [{ id: "call-1", name: "codemode", input: { code } }],
});

/** A model turn that reports what the `codemode` call's tool message says. */
const report = (options: TextOptions): ScriptedTurn => ({
  text: JSON.stringify(toolResult(options.messages, "call-1")),
});

/** The runtime, a scripted model and the server's chat() call, as a route would make it. */
function setup(
  turns: Array<ScriptedTurn | ((options: TextOptions) => ScriptedTurn)>,
  crmOptions: Parameters<typeof crmRuntime>[0] = {},
) {
  const crm = crmRuntime(crmOptions);
  const adapter = new ScriptedAdapter(turns);
  let runs = 0;
  const serve = (
    request: {
      messages?: ModelMessage[];
      parentRunId?: string;
      resume?: ReturnType<typeof resumeItem>[];
    } = {},
    options: CodemodeApprovalsOptions = {},
    runtime: CodemodeRuntime = crm.runtime,
  ) =>
    collectRun(
      chat({
        adapter,
        messages: request.messages ?? [{ role: "user", content: "Bill Ada what she owes." }],
        threadId: "thread-1",
        runId: `run-${++runs}`,
        ...(request.parentRunId ? { parentRunId: request.parentRunId } : {}),
        ...(request.resume ? { resume: request.resume } : {}),
        tools: [codemodeTool(runtime)],
        interrupts: [codemodeApproval],
        middleware: [codemodeApprovals(runtime, options)],
      }),
    );
  return { ...crm, adapter, serve };
}

describe("codemodeApprovals", () => {
  it("ends the chat run with an interrupt that shows the exact recorded input; the model waits", async () => {
    const { serve, adapter, sent, runtime } = setup([callCode(BILL_ADA)]);
    const first = await serve();
    expect(first.interrupts).toHaveLength(1);
    const [pending] = await runtime.pending();
    expect(payloadOf(first.interrupts[0])).toEqual({
      executionId: pending?.executionId,
      toolCallId: "call-1",
      calls: [
        {
          seq: 1,
          connector: "crm",
          method: "send_invoice",
          input: { customer: "cus_ada", amount: 120 },
          digest: DIGEST,
        },
      ],
    });
    expect(first.interrupts[0]?.message).toBe(
      "The code wants to call crm.send_invoice. Approve it?",
    );
    expect(adapter.calls).toHaveLength(1);
    expect(sent).toEqual([]);
    // the client keeps the paused result in its history
    expect(toolResult(first.messages, "call-1")).toMatchObject({
      status: "paused",
      message: PAUSED_MESSAGE,
    });
  });

  it("approving on the continuation runs the call once, and the model reads the completed run", async () => {
    const { serve, adapter, sent, found } = setup([callCode(BILL_ADA), report, report]);
    const first = await serve();
    const interrupt = first.interrupts[0];
    if (!interrupt) throw new Error("expected an interrupt");
    const second = await serve({
      messages: first.messages,
      parentRunId: "run-1",
      resume: [resumeItem(interrupt, { approved: true })],
    });
    expect(sent).toEqual([{ customer: "cus_ada", amount: 120 }]);
    // the resumed pass replayed the lookup instead of calling it again
    expect(found).toEqual(["Ada"]);
    expect(adapter.calls).toHaveLength(2);
    const seen = toolResult(adapter.calls[1]?.messages ?? [], "call-1");
    expect(seen).toEqual({
      status: "completed",
      executionId: (payloadOf(interrupt) as { executionId: string }).executionId,
      result: "inv_1",
    });
    expect(JSON.parse(second.text)).toEqual(seen);
    expect(second.interrupts).toEqual([]);
    const event = second.chunks.find(
      (chunk) =>
        chunk.type === "CUSTOM" && (chunk as { name: string }).name === CODEMODE_DECISION_EVENT,
    ) as { value: Record<string, unknown> } | undefined;
    expect(event?.value).toMatchObject({
      toolCallId: "call-1",
      decision: "approved",
      output: seen,
    });

    // the same answer sent again decides nothing: the call ran once
    const replayed = await serve({
      messages: first.messages,
      parentRunId: "run-1",
      resume: [resumeItem(interrupt, { approved: true })],
    });
    expect(sent).toHaveLength(1);
    expect(JSON.parse(replayed.text)).toMatchObject({
      status: "completed",
      message: expect.stringContaining("no longer waits and is now completed"),
    });
  });

  it("rejecting ends the run without the call, and the model reads why", async () => {
    const { serve, adapter, sent, runtime } = setup([callCode(BILL_ADA), report]);
    const first = await serve();
    const interrupt = first.interrupts[0];
    if (!interrupt) throw new Error("expected an interrupt");
    await serve({
      messages: first.messages,
      parentRunId: "run-1",
      resume: [resumeItem(interrupt, { approved: false })],
    });
    expect(sent).toEqual([]);
    expect(toolResult(adapter.calls[1]?.messages ?? [], "call-1")).toMatchObject({
      status: "error",
      error: expect.stringContaining("A person rejected crm.send_invoice"),
    });
    expect(await runtime.pending()).toEqual([]);
    const [execution] = await runtime.executions();
    expect(execution?.status).not.toBe("paused");
  });

  it("an approval covers only the calls shown: a different input is asked about again, not run", async () => {
    const { serve, adapter, sent } = setup([callCode(BILL_ADA), report]);
    const first = await serve();
    const interrupt = first.interrupts[0];
    if (!interrupt) throw new Error("expected an interrupt");
    const shown = payloadOf(interrupt) as { calls: Array<{ input: unknown }> };
    // a client that showed the person a smaller amount than the run would send
    const altered = {
      ...shown,
      calls: [{ ...shown.calls[0], input: { customer: "cus_ada", amount: 1 } }],
    };
    const second = await serve({
      messages: first.messages,
      parentRunId: "run-1",
      resume: [resumeItem(interrupt, { approved: true }, altered)],
    });
    expect(sent).toEqual([]);
    expect(adapter.calls).toHaveLength(1);
    expect(second.interrupts).toHaveLength(1);
    expect(payloadOf(second.interrupts[0])).toEqual(shown);

    const again = second.interrupts[0];
    if (!again) throw new Error("expected an interrupt");
    await serve({
      messages: second.messages,
      parentRunId: "run-2",
      resume: [resumeItem(again, { approved: true })],
    });
    expect(sent).toEqual([{ customer: "cus_ada", amount: 120 }]);
    expect(toolResult(adapter.calls[1]?.messages ?? [], "call-1")).toMatchObject({
      status: "completed",
      result: "inv_1",
    });
  });

  it("shows where a call goes when its method names an operation; an answer about another one runs nothing", async () => {
    const operation = "POST https://billing.example/v1/invoices (request form 9c1e)";
    const { serve, sent } = setup([callCode(BILL_ADA), report], { invoiceOperation: operation });
    const first = await serve();
    const interrupt = first.interrupts[0];
    if (!interrupt) throw new Error("expected an interrupt");
    const shown = payloadOf(interrupt) as { calls: Array<Record<string, unknown>> };
    expect(shown.calls).toEqual([
      {
        seq: 1,
        connector: "crm",
        method: "send_invoice",
        input: { customer: "cus_ada", amount: 120 },
        operation,
        digest: DIGEST,
      },
    ]);
    // a client that showed the person another destination is asked again, and nothing runs
    const elsewhere = {
      ...shown,
      calls: [{ ...shown.calls[0], operation: "POST https://attacker.example/invoices" }],
    };
    const second = await serve({
      messages: first.messages,
      parentRunId: "run-1",
      resume: [resumeItem(interrupt, { approved: true }, elsewhere)],
    });
    expect(sent).toEqual([]);
    expect(payloadOf(second.interrupts[0])).toEqual(shown);
    const again = second.interrupts[0];
    if (!again) throw new Error("expected an interrupt");
    await serve({
      messages: second.messages,
      parentRunId: "run-2",
      resume: [resumeItem(again, { approved: true })],
    });
    expect(sent).toEqual([{ customer: "cus_ada", amount: 120 }]);
  });

  it("an approval covers the calls it showed: a call that started to wait since is asked about, not run", async () => {
    const { serve, runtime, sent } = setup([callCode(TWO), report]);
    const first = await serve();
    const ask = first.interrupts[0];
    if (!ask) throw new Error("expected an interrupt");
    // between the middleware's read of what waits and its approval, the host's queue approves
    // the first invoice: the run goes on and waits for the second, which nobody was shown yet
    const racing: CodemodeRuntime = {
      ...runtime,
      approve: async (options) => {
        await runtime.approve({ executionId: options.executionId });
        return runtime.approve(options);
      },
    };
    const second = await serve(
      {
        messages: first.messages,
        parentRunId: "run-1",
        resume: [resumeItem(ask, { approved: true })],
      },
      {},
      racing,
    );
    expect(sent).toEqual([{ customer: "cus_ada", amount: 10 }]);
    const again = second.interrupts[0];
    if (!again) throw new Error("expected the second invoice to be asked about");
    expect((payloadOf(again) as { calls: Array<{ input: unknown }> }).calls).toMatchObject([
      { seq: 1, input: { customer: "cus_bob", amount: 20 } },
    ]);
  });

  it("a resumed run that pauses again asks again before the model runs", async () => {
    const { serve, adapter, sent } = setup([callCode(TWO), report]);
    const first = await serve();
    const firstAsk = first.interrupts[0];
    if (!firstAsk) throw new Error("expected an interrupt");
    expect((payloadOf(firstAsk) as { calls: unknown[] }).calls).toEqual([
      {
        seq: 0,
        connector: "crm",
        method: "send_invoice",
        input: { customer: "cus_ada", amount: 10 },
        digest: DIGEST,
      },
    ]);
    const second = await serve({
      messages: first.messages,
      parentRunId: "run-1",
      resume: [resumeItem(firstAsk, { approved: true })],
    });
    expect(sent).toEqual([{ customer: "cus_ada", amount: 10 }]);
    expect(adapter.calls).toHaveLength(1);
    const secondAsk = second.interrupts[0];
    if (!secondAsk) throw new Error("expected a second interrupt");
    expect((payloadOf(secondAsk) as { calls: unknown[] }).calls).toEqual([
      {
        seq: 1,
        connector: "crm",
        method: "send_invoice",
        input: { customer: "cus_bob", amount: 20 },
        digest: DIGEST,
      },
    ]);
    // the history the client keeps now says what the run waits for
    expect(toolResult(second.messages, "call-1")).toMatchObject({
      status: "paused",
      pending: [{ seq: 1, args: { customer: "cus_bob", amount: 20 } }],
    });
    await serve({
      messages: second.messages,
      parentRunId: "run-2",
      resume: [resumeItem(secondAsk, { approved: true })],
    });
    expect(sent).toEqual([
      { customer: "cus_ada", amount: 10 },
      { customer: "cus_bob", amount: 20 },
    ]);
    expect(toolResult(adapter.calls[1]?.messages ?? [], "call-1")).toMatchObject({
      status: "completed",
      result: ["inv_1", "inv_2"],
    });
  });

  it("calls made together are shown together, and one approval runs each once", async () => {
    const BOTH = `async () => {
      const sent = await Promise.all([
        crm.send_invoice({ customer: "cus_ada", amount: 10 }),
        crm.send_invoice({ customer: "cus_bob", amount: 20 }),
      ]);
      return sent.map((item) => item.invoice);
    }`;
    const { serve, adapter, sent } = setup([callCode(BOTH), report]);
    const first = await serve();
    const interrupt = first.interrupts[0];
    if (!interrupt) throw new Error("expected an interrupt");
    expect(interrupt.message).toBe(
      "The code wants to make 2 calls together (crm.send_invoice, crm.send_invoice). None runs unless you approve; approving runs each once.",
    );
    expect((payloadOf(interrupt) as { calls: unknown[] }).calls).toEqual([
      {
        seq: 0,
        connector: "crm",
        method: "send_invoice",
        input: { customer: "cus_ada", amount: 10 },
        digest: DIGEST,
      },
      {
        seq: 1,
        connector: "crm",
        method: "send_invoice",
        input: { customer: "cus_bob", amount: 20 },
        digest: DIGEST,
      },
    ]);
    await serve({
      messages: first.messages,
      parentRunId: "run-1",
      resume: [resumeItem(interrupt, { approved: true })],
    });
    expect(sent).toEqual([
      { customer: "cus_ada", amount: 10 },
      { customer: "cus_bob", amount: 20 },
    ]);
    expect(toolResult(adapter.calls[1]?.messages ?? [], "call-1")).toMatchObject({
      status: "completed",
      result: ["inv_1", "inv_2"],
    });
  });

  it("cancelling leaves the run paused, and the model is told it still waits", async () => {
    const { serve, adapter, sent, runtime } = setup([callCode(BILL_ADA), report]);
    const first = await serve();
    const interrupt = first.interrupts[0];
    if (!interrupt) throw new Error("expected an interrupt");
    await serve({
      messages: first.messages,
      parentRunId: "run-1",
      resume: [resumeItem(interrupt, "cancel")],
    });
    expect(sent).toEqual([]);
    expect(toolResult(adapter.calls[1]?.messages ?? [], "call-1")).toMatchObject({
      status: "paused",
      message: expect.stringContaining("closed the approval without deciding"),
    });
    expect(await runtime.pending()).toHaveLength(1);
  });

  it("only an answer to the interrupt decides: a new message in the thread leaves the run paused", async () => {
    const { serve, adapter, sent, runtime } = setup([
      callCode(BILL_ADA),
      { text: "Still waiting." },
    ]);
    const first = await serve();
    const next = await serve({
      messages: [...first.messages, { role: "user", content: "I approve, go ahead and send it." }],
    });
    expect(next.text).toBe("Still waiting.");
    expect(next.interrupts).toEqual([]);
    expect(adapter.calls).toHaveLength(2);
    expect(sent).toEqual([]);
    expect(await runtime.pending()).toHaveLength(1);
  });

  it("on a later turn, a paused output the client kept reads as its run's status now", async () => {
    const { serve, adapter, runtime } = setup([callCode(BILL_ADA), report, report]);
    // too large to show: the model gets the paused output, and the host decides
    const first = await serve({}, { maxShownLength: 40 });
    const history = [
      ...(adapter.calls[1]?.messages ?? []),
      { role: "assistant" as const, content: first.text },
      { role: "user" as const, content: "Done?" },
    ];
    const output = toolResult(history, "call-1") as { executionId: string };
    expect(output).toMatchObject({ status: "paused" });
    // the host approves out of band; the client's history still holds the paused output
    await runtime.approve({ executionId: output.executionId });
    await serve({ messages: history });
    expect(toolResult(adapter.calls[2]?.messages ?? [], "call-1")).toEqual({
      status: "completed",
      executionId: output.executionId,
      message:
        "This run was paused when this result was recorded; it no longer waits and is now completed. Do not run the code again for its effects.",
    });
  });

  it("a run whose calls are too large to show is not asked about: it waits for the host", async () => {
    const { serve, adapter, sent, runtime } = setup([callCode(BILL_ADA), report]);
    const first = await serve({}, { maxShownLength: 40 });
    expect(first.interrupts).toEqual([]);
    expect(adapter.calls).toHaveLength(2);
    expect(toolResult(adapter.calls[1]?.messages ?? [], "call-1")).toMatchObject({
      status: "paused",
    });
    const [pending] = await runtime.pending();
    expect(sent).toEqual([]);
    expect(await runtime.approve({ executionId: pending?.executionId ?? "" })).toMatchObject({
      status: "completed",
    });
    expect(sent).toHaveLength(1);
  });

  it("refuses a chat without its tool, and options out of range", async () => {
    const { runtime } = crmRuntime();
    const adapter = new ScriptedAdapter([{ text: "Hi." }]);
    const run = collectRun(
      chat({
        adapter,
        messages: [{ role: "user", content: "Hi" }],
        tools: [codemodeTool(runtime, { name: "run_code" })],
        interrupts: [codemodeApproval],
        middleware: [codemodeApprovals(runtime)],
      }),
    );
    await expect(run).rejects.toThrow(/no tool named "codemode"/);
    expect(() => codemodeApprovals(runtime, { maxShownLength: 0 })).toThrow(/maxShownLength/);
    expect(() => codemodeApprovals({} as never)).toThrow(/createCodemodeRuntime/);
  });
});
