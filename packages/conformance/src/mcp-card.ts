// A card of an MCP session (a reply that showed waiting calls of one run, with their handle), and
// the decision requests a session sends with one: as shown, or forged.
import type { DecisionHandle } from "@codemode/core";
import type { ShownCall } from "./surface-trace.ts";

/** A reply that showed waiting calls of one run, with the handle a decision sends back. */
export interface McpCard {
  session: number;
  executionId: string;
  shown: ShownCall[];
  handle: DecisionHandle;
}

/** How a decision's request differs from the card it was made from. */
export type Forge = "none" | "digest" | "otherRun";

/** A digest that is no call's: the first hex digit changed. */
const otherDigest = (digest: string) => `${digest.startsWith("0") ? "1" : "0"}${digest.slice(1)}`;

/**
 * The request of a decision with `card`'s handle: as given, with a digest changed (it names no
 * call that was shown), or pointed at another known run (it names that run's calls at the card's
 * seqs, with the inputs the card showed); `runs` are the runs known so far, `pick` chooses one.
 */
export function forgedRequest(card: McpCard, forge: Forge, runs: readonly string[], pick: number) {
  const [first, ...rest] = card.handle.calls;
  if (forge === "digest" && first) {
    const calls = [{ ...first, digest: otherDigest(first.digest) }, ...rest];
    return {
      request: { executionId: card.executionId, handle: { ...card.handle, calls } },
      names: [],
    };
  }
  const other = runs[pick % Math.max(runs.length, 1)];
  if (forge === "otherRun" && other !== undefined && other !== card.executionId) {
    return {
      request: { executionId: other, handle: { ...card.handle, executionId: other } },
      names: card.shown.map((call) => ({ ...call, executionId: other })),
    };
  }
  return { request: { executionId: card.executionId, handle: card.handle }, names: card.shown };
}
