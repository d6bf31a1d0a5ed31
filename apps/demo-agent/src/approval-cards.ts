import type { CodemodeRuntime } from "codemode";
import type { ApprovalAnswer, ApprovalCard } from "./chat-event.ts";
import type { DemoStores } from "./demo-stores.ts";
import type { ApprovalRequested } from "./run-chat-turn.ts";
import type { SqlLike } from "./sql-like.ts";
import { waitingRun } from "./waiting-run.ts";

/** Cards kept (the newest); the conversation the page shows is shorter than this. */
export const MAX_CARDS = 100;

/**
 * The approval cards of the conversation in the Durable Object's SQLite: what the person was asked,
 * and how they answered. A card is built once, when the model's tool call raised its request.
 */
export class ApprovalCards {
  constructor(private readonly sql: SqlLike) {
    sql.exec(`CREATE TABLE IF NOT EXISTS demo_approval_cards (
      approval_id TEXT PRIMARY KEY, execution_id TEXT NOT NULL, card TEXT NOT NULL,
      seq INTEGER NOT NULL)`);
  }

  put(card: ApprovalCard): void {
    const [row] = this.sql
      .exec<{ n: number | null }>("SELECT MAX(seq) AS n FROM demo_approval_cards")
      .toArray();
    this.sql.exec(
      "INSERT OR REPLACE INTO demo_approval_cards (approval_id, execution_id, card, seq) VALUES (?, ?, ?, ?)",
      card.approvalId,
      card.executionId,
      JSON.stringify(card),
      (row?.n ?? 0) + 1,
    );
    this.sql.exec(
      "DELETE FROM demo_approval_cards WHERE seq <= (SELECT MAX(seq) FROM demo_approval_cards) - ?",
      MAX_CARDS,
    );
  }

  get(approvalId: string): ApprovalCard | undefined {
    const [row] = this.sql
      .exec<{ card: string }>(
        "SELECT card FROM demo_approval_cards WHERE approval_id = ?",
        approvalId,
      )
      .toArray();
    return row ? (JSON.parse(row.card) as ApprovalCard) : undefined;
  }

  /** The card of a run still waiting for its answer. */
  unansweredOf(executionId: string): ApprovalCard | undefined {
    return this.list().find((card) => card.executionId === executionId && !card.answer);
  }

  answer(approvalId: string, answer: ApprovalAnswer): ApprovalCard | undefined {
    const card = this.get(approvalId);
    if (!card || card.answer) return undefined;
    const answered = { ...card, answer };
    this.sql.exec(
      "UPDATE demo_approval_cards SET card = ? WHERE approval_id = ?",
      JSON.stringify(answered),
      approvalId,
    );
    return answered;
  }

  list(): ApprovalCard[] {
    return this.sql
      .exec<{ card: string }>("SELECT card FROM demo_approval_cards ORDER BY seq")
      .toArray()
      .map((row) => JSON.parse(row.card) as ApprovalCard);
  }

  clear(): void {
    this.sql.exec("DELETE FROM demo_approval_cards");
  }
}

/**
 * The card of an approval request: the run and what it waits for as the runtime showed it to the
 * chat (its descriptor, with the decision's handle), the calls it made before pausing (from the
 * journal), and what each waiting call would change. None when those calls no longer wait as shown.
 */
export async function buildApprovalCard(
  runtime: CodemodeRuntime,
  stores: DemoStores,
  requested: ApprovalRequested,
  request: string,
  askedAt: number,
): Promise<ApprovalCard | undefined> {
  const descriptor = await runtime.approvalDescriptor(requested.toolCallId, requested.code);
  if (!descriptor) return undefined;
  const { done, pending, handle } = await waitingRun(
    runtime,
    stores,
    descriptor.executionId,
    descriptor.pending,
    descriptor.handle,
  );
  return {
    ...requested,
    executionId: descriptor.executionId,
    request: request.slice(0, 2_000),
    askedAt,
    done,
    pending,
    handle,
  };
}
