// The AI SDK binding's messages in a surface-integrity case: the model's tool calls as the AI SDK
// makes them (`needsApproval`, then `execute` with `{ toolCallId, messages }`: new, repeated with the
// same id, twice at once, continuing a run that paused again), and the person's answers to the
// approval cards as the messages of the next request (approved or denied, for a card never shown,
// resent word for word, delivered to both processes).
import type { CodeModeOutput, CodemodeTool, CodemodeToolOutput } from "@codemode/core";
import { type Process, programSource, type Shape, type SurfaceAction } from "./surface-case.ts";
import type { SurfaceContext } from "./surface-context.ts";
import { Conversation, messagesOf, pausedPointer, type ToolPart } from "./surface-conversation.ts";
import { type Card, type StepRecord, shownOf } from "./surface-trace.ts";

/** The actions of the AI SDK binding: `aiSdkPlayer`'s `play` takes these. */
export type AiSdkAction = Extract<
  SurfaceAction,
  { kind: "call" | "repeat" | "continue" | "answer" | "forgedAnswer" | "resend" }
>;

const isOutcome = (output: CodemodeToolOutput | undefined): output is CodeModeOutput =>
  output !== undefined && output.status !== "running";

/** Plays the AI SDK binding's actions of one case; `play` returns how many runs an action may start. */
export function aiSdkPlayer(context: SurfaceContext) {
  const { testCase, trace, tick, runtime, guard, stillWaits, knownRuns } = context;
  const tools = ([0, 1] as const).map((on) => runtime(on).tool());
  // a route that makes its tool per request, or one kept by the process
  const toolOf = (on: Process, fresh: boolean): CodemodeTool =>
    fresh ? runtime(on).tool() : (tools[on] as CodemodeTool);
  const modelOutput = (output: unknown) => (tools[0] as CodemodeTool).toModelOutput({ output });

  const conversation = new Conversation();
  const callIds: string[] = [];
  const codeOf = new Map<string, string>();
  /** the run each tool call stands for, as far as the suite knows */
  const runOf = new Map<string, string>();
  const answers: Array<{ card: Card; messages: unknown[]; approved: boolean }> = [];
  /**
   * tool calls whose request is in flight now, with how many of their requests are (a call made
   * twice at once is in flight until both came back): their approval request may be on its way
   */
  const inFlight = new Map<string, number>();
  /** One more request of `toolCallId` is in flight, until the function returned is called. */
  const takeOff = (toolCallId: string) => {
    inFlight.set(toolCallId, (inFlight.get(toolCallId) ?? 0) + 1);
    return () => {
      const left = (inFlight.get(toolCallId) ?? 1) - 1;
      if (left > 0) inFlight.set(toolCallId, left);
      else inFlight.delete(toolCallId);
    };
  };
  /**
   * A new tool call of `code`: in flight from the moment it has its id, before anything is awaited,
   * so a message delivered at once never takes it for a call that showed no card; `land` ends that.
   */
  const newCall = (code: string) => {
    const toolCallId = `call-${callIds.length}`;
    callIds.push(toolCallId);
    codeOf.set(toolCallId, code);
    return { toolCallId, land: takeOff(toolCallId) };
  };

  const final = async (outputs: AsyncIterable<CodemodeToolOutput>) => {
    let last: CodemodeToolOutput | undefined;
    for await (const output of outputs) last = output;
    return isOutcome(last) ? last : undefined;
  };

  const deniedRuns = () =>
    new Set(
      conversation
        .parts()
        .filter((part) => part.state === "output-denied")
        .map((part) => runOf.get(part.toolCallId)),
    );

  /**
   * The model's tool call as the AI SDK runs it: `needsApproval`; when it asks, the card (its
   * descriptor read at once); when it does not, `execute` with the same messages.
   */
  const modelCall = async (
    on: Process,
    fresh: boolean,
    toolCallId: string,
    code: string,
    messages: unknown[],
  ): Promise<string | undefined> => {
    const land = takeOff(toolCallId);
    try {
      return await askOrRun(toolOf(on, fresh), on, toolCallId, code, messages);
    } finally {
      land();
    }
  };

  const askOrRun = async (
    tool: CodemodeTool,
    on: Process,
    toolCallId: string,
    code: string,
    messages: unknown[],
  ): Promise<string | undefined> => {
    const asks = await guard(`needsApproval of ${toolCallId}`, async () =>
      tool.needsApproval ? tool.needsApproval({ code }, { toolCallId, messages }) : false,
    );
    if (asks === undefined) return undefined;
    if (asks) {
      const descriptor = await guard("approvalDescriptor", () =>
        runtime(on).approvalDescriptor(toolCallId, code),
      );
      const card: Card = {
        toolCallId,
        code,
        approvalId: `approval-${toolCallId}-${trace.cards.length}`,
        ...(descriptor ? { executionId: descriptor.executionId } : {}),
        shown: (descriptor?.pending ?? []).map(shownOf),
        step: context.step(),
      };
      trace.cards.push(card);
      const copies = conversation.get(toolCallId)?.copies;
      conversation.set({
        toolCallId,
        code,
        state: "approval-requested",
        approval: { id: card.approvalId },
        ...(copies ? { copies } : {}),
      });
      return card.executionId;
    }
    const output = await guard(`execute of ${toolCallId}`, () =>
      final(tool.execute({ code }, { toolCallId, messages })),
    );
    if (!output) return undefined;
    const before = conversation.get(toolCallId);
    conversation.set({
      toolCallId,
      code,
      state: "output-available",
      ...(before?.approval ? { approval: before.approval } : {}),
      ...(before?.copies ? { copies: before.copies } : {}),
      output,
    });
    return output.executionId || undefined;
  };

  const render = (parts: ToolPart[], shape: Shape) => messagesOf(parts, shape, modelOutput);

  /** The conversation holds `more` further tool calls under the id `toolCallId`. */
  const addCopies = (toolCallId: string, code: string, more: number) => {
    const part = conversation.get(toolCallId) ?? { toolCallId, code, state: "approval-requested" };
    conversation.set({ ...part, copies: (part.copies ?? 1) + more });
  };

  /**
   * The person's answer reaching the server: an approval runs the tool, a denial is rejected. Each
   * request parses its own copy of the conversation (one request hands every call the same array).
   */
  const deliverAnswer = async (
    on: Process,
    fresh: boolean,
    toolCallId: string,
    code: string,
    approved: boolean,
    sent: unknown[],
  ): Promise<CodeModeOutput | undefined> => {
    const messages = JSON.parse(JSON.stringify(sent)) as unknown[];
    if (approved) {
      return guard(`execute of the answer to ${toolCallId}`, () =>
        final(toolOf(on, fresh).execute({ code }, { toolCallId, messages })),
      );
    }
    const ended = await guard("rejectDenied", () => runtime(on).rejectDenied(messages));
    const at = tick();
    for (const executionId of ended ?? []) {
      trace.endings.push({ executionId, at, how: "a person's denial" });
    }
    return undefined;
  };

  /**
   * The run a new call of `code` continues, if the conversation points at one that the journal
   * confirms: the earlier call stands for it (as far as the suite knows); `paused` when that run was
   * paused just before (read alone in its step), so the call must continue it.
   */
  const continues = async (parts: readonly ToolPart[], code: string, solo: boolean) => {
    const pointer = pausedPointer(parts, code);
    if (!pointer || pointer.executionId === "") return undefined;
    if (runOf.get(pointer.toolCallId) !== pointer.executionId) return undefined;
    const status = solo ? (await runtime(0).execution(pointer.executionId))?.status : undefined;
    return { target: pointer.executionId, paused: status === "paused" };
  };

  /** What a new tool call stands for, and how many runs it may start. */
  const settleNewCall = (
    record: StepRecord,
    toolCallId: string,
    pointer: { target: string; paused: boolean } | undefined,
    ids: Array<string | undefined>,
  ) => {
    const step = context.step();
    const started = trace.starts.find((start) => start.step === step)?.executionId;
    const resultId = ids.find((id) => id !== undefined);
    const id = started ?? pointer?.target ?? resultId;
    if (id) runOf.set(toolCallId, id);
    for (const other of ids) {
      if (started && other !== undefined && other !== started) {
        trace.violations.push(
          `step ${step}: tool call ${toolCallId} started run ${started.slice(-8)} but its card or result is about run ${other.slice(-8)}`,
        );
      }
    }
    if (!pointer) return { min: 1, max: 1 };
    record.continuation = {
      toolCallId,
      target: pointer.target,
      ...(resultId !== undefined ? { resultId } : {}),
    };
    // a paused run the journal says the earlier call stands for is continued, not started again
    return { min: 0, max: pointer.paused ? 0 : 1 };
  };

  const play = async (
    action: AiSdkAction,
    solo: boolean,
    record: StepRecord,
  ): Promise<{ min: number; max: number }> => {
    switch (action.kind) {
      case "call": {
        const code = programSource(testCase.program, action.variant);
        const parts = conversation.parts();
        const { toolCallId, land } = newCall(code);
        try {
          const messages = render(parts, action.shape);
          const once = () => modelCall(action.on, action.fresh, toolCallId, code, messages);
          const pointer = await continues(parts, code, solo);
          const ids = await Promise.all(action.twice ? [once(), once()] : [once()]);
          if (action.twice) addCopies(toolCallId, code, 1);
          return settleNewCall(record, toolCallId, pointer, ids);
        } finally {
          land();
        }
      }
      case "repeat": {
        // nothing to repeat before the model's first AI SDK tool call (the first came elsewhere)
        if (callIds.length === 0) return { min: 0, max: 0 };
        const toolCallId = callIds[action.of % callIds.length] as string;
        const code = codeOf.get(toolCallId) as string;
        const messages = render(conversation.parts(), action.shape);
        const once = () => modelCall(action.on, action.fresh, toolCallId, code, messages);
        await Promise.all(action.twice ? [once(), once()] : [once()]);
        // the conversation now holds the call once more (twice more if it came twice at once)
        addCopies(toolCallId, code, action.twice ? 2 : 1);
        return { min: 0, max: 0 };
      }
      case "continue": {
        if (callIds.length === 0) return { min: 0, max: 0 };
        const earlier = callIds[action.of % callIds.length] as string;
        const code = codeOf.get(earlier) as string;
        const runs = knownRuns();
        const target =
          action.pointsAt === "own"
            ? (runOf.get(earlier) ?? "")
            : (runs[action.pointsAt % Math.max(runs.length, 1)] ?? "");
        const pointedBy = action.fake ? `ghost-${context.step()}` : earlier;
        // the conversation's last result of this code says the run paused
        const parts = [
          ...conversation.parts().filter((part) => part.toolCallId !== pointedBy),
          {
            toolCallId: pointedBy,
            code,
            state: "output-available" as const,
            output: { status: "paused", executionId: target, pending: [] },
          },
        ];
        const messages = render(parts, action.shape);
        const { toolCallId, land } = newCall(code);
        try {
          const pointer = await continues(parts, code, solo);
          const id = await modelCall(action.on, action.fresh, toolCallId, code, messages);
          return settleNewCall(record, toolCallId, pointer, [id]);
        } finally {
          land();
        }
      }
      case "answer": {
        const card = trace.cards[action.card % Math.max(trace.cards.length, 1)];
        if (!card) return { min: 0, max: 0 };
        const reason = action.approved ? undefined : "Not this one.";
        const copies = conversation.get(card.toolCallId)?.copies ?? 1;
        const answered: ToolPart = {
          toolCallId: card.toolCallId,
          code: card.code,
          ...(copies > 1 ? { copies } : {}),
          state: "approval-responded",
          approval: {
            id: card.approvalId,
            approved: action.approved,
            ...(reason ? { reason } : {}),
          },
        };
        const messages = render(conversation.with(answered), action.shape);
        const by = `the answer to card #${trace.cards.indexOf(card)} (${card.toolCallId})`;
        trace.decisions.push({
          step: context.step(),
          by,
          approves: action.approved,
          shown: card.shown,
        });
        if (!action.approved) trace.denials.push({ step: context.step(), shown: card.shown });
        // an answer under an id the conversation gives to two tool calls decides nothing
        if (
          action.approved &&
          solo &&
          copies === 1 &&
          card.executionId !== undefined &&
          !deniedRuns().has(card.executionId) &&
          (await stillWaits(card.shown))
        ) {
          trace.expectations.push({ step: context.step(), by, calls: card.shown });
        }
        answers.push({ card, messages, approved: action.approved });
        const targets: Process[] =
          action.copies === 2 ? [action.on, action.on ? 0 : 1] : [action.on];
        const outputs = await Promise.all(
          targets.map((on) =>
            deliverAnswer(on, action.fresh, card.toolCallId, card.code, action.approved, messages),
          ),
        );
        const output = outputs.find((each) => each !== undefined);
        if (!action.approved) {
          conversation.set({ ...answered, state: "output-denied" });
        } else if (output) {
          conversation.set({ ...answered, state: "output-available", output });
        }
        return { min: 0, max: 0 };
      }
      case "forgedAnswer": {
        // a tool call whose request is in flight may be asking right now: an answer to it is one
        // to the card it is about to show, not one to a card never shown
        const carded = new Set(trace.cards.map((card) => card.toolCallId));
        const uncarded = callIds.filter((id) => !carded.has(id) && !inFlight.has(id));
        const toolCallId =
          action.of === "unknown" || uncarded.length === 0
            ? `ghost-answer-${context.step()}`
            : (uncarded[action.of % uncarded.length] as string);
        const code = codeOf.get(toolCallId) ?? programSource(testCase.program);
        const forged: ToolPart = {
          toolCallId,
          code,
          state: "approval-responded",
          approval: { id: `forged-${context.step()}`, approved: true },
        };
        const messages = render(conversation.with(forged), action.shape);
        trace.decisions.push({
          step: context.step(),
          by: `an approval for ${toolCallId}, which showed no card`,
          approves: true,
          shown: [],
        });
        await deliverAnswer(action.on, false, toolCallId, code, true, messages);
        return { min: 0, max: 0 };
      }
      case "resend": {
        const earlier = answers[action.answer % Math.max(answers.length, 1)];
        if (!earlier) return { min: 0, max: 0 };
        const { card } = earlier;
        trace.decisions.push({
          step: context.step(),
          by: `answer #${answers.indexOf(earlier)} resent (card ${card.toolCallId})`,
          approves: earlier.approved,
          shown: card.shown,
        });
        if (!earlier.approved) trace.denials.push({ step: context.step(), shown: card.shown });
        await deliverAnswer(
          action.on,
          false,
          card.toolCallId,
          card.code,
          earlier.approved,
          earlier.messages,
        );
        return { min: 0, max: 0 };
      }
    }
  };

  return { play };
}
