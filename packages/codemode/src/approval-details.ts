// The AI SDK's UI message stream, with what a person needs to decide a paused `codemode` run: each
// approval request of a `codemode` call gets the run and the calls it waits for, with their exact
// recorded input, as its `approvalDescriptor` (the UI reads it as the tool part's
// `approval.descriptor`, a `CodemodeApprovalDescriptor`).
import { type CodemodeApprovalDescriptor, type CodemodeRuntime, shownValue } from "@codemode/core";
import type { UIMessageChunk } from "ai";

/** Tool inputs remembered per stream, to find the run of a later approval request. */
const MAX_REMEMBERED = 256;

/**
 * The descriptor as JSON carries it to the page: each input in the value codec's tagged form, so a
 * Map, a Set, bytes, a bigint or an `undefined` reads as what it is (and never fails the stream).
 */
function overTheWire(descriptor: CodemodeApprovalDescriptor): CodemodeApprovalDescriptor {
  return {
    ...descriptor,
    pending: descriptor.pending.map((action) => ({ ...action, args: shownValue(action.args) })),
  };
}

/**
 * A `TransformStream` for `result.toUIMessageStream().pipeThrough(withApprovalDetails(runtime))`:
 * adds the pending calls to every approval request of a `codemode` call whose run is paused.
 */
export function withApprovalDetails(
  runtime: Pick<CodemodeRuntime, "approvalDescriptor">,
): TransformStream<UIMessageChunk, UIMessageChunk> {
  const codeOfCall = new Map<string, string>();
  return new TransformStream<UIMessageChunk, UIMessageChunk>({
    async transform(chunk, controller) {
      if (chunk.type === "tool-input-available") {
        const code = (chunk.input as { code?: unknown } | undefined)?.code;
        if (typeof code === "string") {
          codeOfCall.set(chunk.toolCallId, code);
          if (codeOfCall.size > MAX_REMEMBERED) {
            codeOfCall.delete(codeOfCall.keys().next().value as string);
          }
        }
      } else if (chunk.type === "tool-approval-request") {
        const code = codeOfCall.get(chunk.toolCallId);
        const descriptor =
          code === undefined ? undefined : await runtime.approvalDescriptor(chunk.toolCallId, code);
        if (descriptor) {
          controller.enqueue({ ...chunk, approvalDescriptor: overTheWire(descriptor) });
          return;
        }
      }
      controller.enqueue(chunk);
    },
  });
}
