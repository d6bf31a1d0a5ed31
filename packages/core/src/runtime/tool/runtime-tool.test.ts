import { describe, expect, it } from "vitest";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { testContext } from "../../test/run-context.ts";
import { approvalReason } from "./approval-reason.ts";
import type { CodemodeToolOutput } from "./code-tool.ts";
import { approvalDescriptor, CONTINUE_HINT, rejectDenied, runtimeTool } from "./runtime-tool.ts";

const CODE = "async () => gate.open({ door: 1 })";

/** Everything `execute` yields, in order. */
async function outputs(iterable: AsyncIterable<CodemodeToolOutput>): Promise<CodemodeToolOutput[]> {
  const all: CodemodeToolOutput[] = [];
  for await (const output of iterable) all.push(output);
  return all;
}

/** A conversation in which the `codemode` call `toolCallId` was asked about and answered. */
const answered = (toolCallId: string, approved: boolean, reason?: string) => [
  {
    role: "assistant",
    content: [
      { type: "tool-call", toolCallId, toolName: "codemode", input: { code: CODE } },
      { type: "tool-approval-request", approvalId: `ap_${toolCallId}`, toolCallId },
    ],
  },
  {
    role: "tool",
    content: [
      {
        type: "tool-approval-response",
        approvalId: `ap_${toolCallId}`,
        approved,
        ...(reason ? { reason } : {}),
      },
    ],
  },
];

/** A context whose program opens a gated door, when `opens`, and returns "done". */
function setup(opens = true) {
  const gate = mockConnector({
    name: "gate",
    methods: { open: { requiresApproval: true }, peek: {} },
  });
  const executor = new MockExecutor(async ({ gate }) => {
    await (opens ? gate.open?.({ door: 1 }) : gate.peek?.({}));
    return "done";
  });
  return { gate, executor, context: testContext([gate], { executor }) };
}

describe("runtimeTool", () => {
  it("with host approvals: execute starts the run and reports its progress, then the pause", async () => {
    const { context } = setup();
    const tool = runtimeTool(context, { approvals: "host" });
    expect(tool.needsApproval).toBeUndefined();
    expect(tool.toolApproval).toBeUndefined();
    const all = await outputs(tool.execute({ code: CODE }, { toolCallId: "call_1" }));
    const last = all.at(-1);
    expect(last).toMatchObject({ status: "paused", pending: [{ seq: 0, args: { door: 1 } }] });
    // the host decides: the model is not told to call again
    expect(JSON.stringify(tool.toModelOutput({ output: last }))).not.toContain(CONTINUE_HINT);
  });

  it("with the AI SDK's approvals: the check runs the first pass and asks, the answer approves what it showed", async () => {
    const { context, gate } = setup();
    const tool = runtimeTool(context);
    expect(await tool.needsApproval?.({ code: CODE }, { toolCallId: "call_1", messages: [] })).toBe(
      true,
    );
    const descriptor = await approvalDescriptor(context, "call_1", CODE);
    expect(descriptor).toMatchObject({
      pending: [{ seq: 0, connector: "gate", method: "open", args: { door: 1 } }],
      handle: { calls: [{ seq: 0 }] },
    });
    expect(gate.calls).toEqual([]);
    const all = await outputs(
      tool.execute({ code: CODE }, { toolCallId: "call_1", messages: answered("call_1", true) }),
    );
    expect(all.at(-1)).toEqual({
      status: "completed",
      executionId: descriptor?.executionId,
      result: "done",
    });
    expect(gate.calls.map((call) => call.method)).toEqual(["open"]);
  });

  it("runs nothing for an approval sent with code other than the code it was asked for, and says so", async () => {
    const { context, gate } = setup();
    const tool = runtimeTool(context);
    expect(await tool.needsApproval?.({ code: CODE }, { toolCallId: "call_3", messages: [] })).toBe(
      true,
    );
    const descriptor = await approvalDescriptor(context, "call_3", CODE);
    // the client edited the call's code in its history and sent the approval with it
    const edited = `${CODE} // edited`;
    const messages = JSON.parse(
      JSON.stringify(answered("call_3", true)).replaceAll(
        JSON.stringify(CODE),
        JSON.stringify(edited),
      ),
    );
    messages[0].content[1].reason = approvalReason(
      descriptor?.executionId ?? "",
      descriptor?.pending ?? [],
    );
    const all = await outputs(tool.execute({ code: edited }, { toolCallId: "call_3", messages }));
    expect(all.at(-1)).toEqual({
      status: "error",
      executionId: "",
      code: "NOT_FOUND",
      error:
        "No run is kept for this tool call with this code (its record was pruned, or the code is not the code its approval request was made for): nothing ran. Call codemode again to start a new run.",
    });
    expect(gate.calls).toEqual([]);
    // the run asked about still waits for its answer
    expect((await context.journal.getExecution(descriptor?.executionId ?? ""))?.status).toBe(
      "paused",
    );
  });

  it("keeps a first pass that did not ask in the runtime's context, for whichever tool object executes the call", async () => {
    const { context, executor } = setup(false);
    const asking = runtimeTool(context);
    expect(await asking.needsApproval?.({ code: CODE }, { toolCallId: "call_2" })).toBe(false);
    expect(executor.requests).toHaveLength(1);
    const other = runtimeTool(context);
    const all = await outputs(other.execute({ code: CODE }, { toolCallId: "call_2" }));
    expect(all).toEqual([{ status: "completed", executionId: expect.any(String), result: "done" }]);
    // not run again: the outcome came from the memory, which hands it out once
    expect(executor.requests).toHaveLength(1);
    expect(
      await outputs(runtimeTool(context).execute({ code: CODE }, { toolCallId: "call_2" })),
    ).toEqual(all);
    expect(executor.requests).toHaveLength(1);
  });

  it("rejects the paused run of a denied call once per conversation", async () => {
    const { context, gate } = setup();
    const tool = runtimeTool(context);
    await tool.needsApproval?.({ code: CODE }, { toolCallId: "call_3" });
    const descriptor = await approvalDescriptor(context, "call_3", CODE);
    const messages = answered("call_3", false, "not this door");
    const first = rejectDenied(context, messages);
    expect(rejectDenied(context, messages)).toBe(first);
    expect(await first).toEqual([descriptor?.executionId]);
    expect(await context.journal.getExecution(descriptor?.executionId as string)).toMatchObject({
      status: "rejected",
      error: "A person rejected gate.open (seq 0, counting from 0): not this door",
    });
    expect(await approvalDescriptor(context, "call_3", CODE)).toBeUndefined();
    expect(gate.calls).toEqual([]);
  });
});
