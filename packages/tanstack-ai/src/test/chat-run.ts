// One chat() run collected, and what the client side of TanStack AI's interrupt protocol does with
// it: read the interrupts of the RUN_FINISHED outcome, keep the MESSAGES_SNAPSHOT as the history,
// and build the continuation's `resume` items with the library's own helpers.
import {
  genericInterruptContinuationFromDescriptor,
  INTERRUPT_PAYLOAD_METADATA_KEY,
  type Interrupt,
  type ModelMessage,
  type StreamChunk,
  wrapGenericInterruptContinuation,
} from "@tanstack/ai";

export interface CollectedRun {
  chunks: StreamChunk[];
  /** the interrupts the run ended with (empty when it finished) */
  interrupts: Interrupt[];
  /** the history the client sends back: the run's messages snapshot */
  messages: ModelMessage[];
  /** the text the model streamed */
  text: string;
}

export async function collectRun(stream: AsyncIterable<StreamChunk>): Promise<CollectedRun> {
  const chunks: StreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const finished = chunks.filter((chunk) => chunk.type === "RUN_FINISHED").at(-1) as
    | { outcome?: { type: string; interrupts?: Interrupt[] } }
    | undefined;
  const snapshot = chunks.find((chunk) => chunk.type === "MESSAGES_SNAPSHOT") as
    | { messages: ModelMessage[] }
    | undefined;
  return {
    chunks,
    interrupts: finished?.outcome?.type === "interrupt" ? (finished.outcome.interrupts ?? []) : [],
    messages: snapshot?.messages ?? [],
    text: chunks
      .filter((chunk) => chunk.type === "TEXT_MESSAGE_CONTENT")
      .map((chunk) => (chunk as { delta: string }).delta)
      .join(""),
  };
}

/** The payload an interrupt shows the person. */
export function payloadOf(interrupt: Interrupt | undefined): unknown {
  return (interrupt?.metadata as Record<string, unknown> | undefined)?.[
    INTERRUPT_PAYLOAD_METADATA_KEY
  ];
}

/**
 * The `resume` item answering a generic interrupt: `answer` resolves it, `"cancel"` cancels it.
 * `shown` replaces the payload the client sends back (what a client that displayed something
 * else would return).
 */
export function resumeItem(
  interrupt: Interrupt,
  answer: { approved: boolean } | "cancel",
  shown?: unknown,
) {
  const continuation = genericInterruptContinuationFromDescriptor(interrupt);
  if (!continuation) throw new Error("Not a first-party generic interrupt.");
  const metadata = wrapGenericInterruptContinuation(
    shown === undefined ? continuation : { ...continuation, payload: shown },
  );
  return answer === "cancel"
    ? { interruptId: interrupt.id, status: "cancelled" as const, metadata }
    : { interruptId: interrupt.id, status: "resolved" as const, payload: answer, metadata };
}
