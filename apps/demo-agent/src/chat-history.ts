import type { ModelMessage } from "ai";
import type { SqlLike } from "./sql-like.ts";

/** How many stored messages the model sees again (the newest ones). */
export const HISTORY_WINDOW = 40;

/**
 * A note of the agent's own in the conversation (what a rollback did): the model reads it as the
 * assistant's text, and the page, marked so, as a note rather than the model's words.
 */
export function noteMessage(text: string): ModelMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text, providerOptions: { demo: { note: true } } }],
  };
}

/** The conversation in the Durable Object's SQLite, as AI SDK model messages. */
export class ChatHistory {
  constructor(private readonly sql: SqlLike) {
    sql.exec(`CREATE TABLE IF NOT EXISTS demo_messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT, message TEXT NOT NULL, created_at INTEGER NOT NULL)`);
  }

  /** The newest messages, oldest first, starting at a user message so every tool call has its result. */
  list(limit = HISTORY_WINDOW): ModelMessage[] {
    const rows = this.sql
      .exec<{ message: string }>(
        "SELECT message FROM demo_messages ORDER BY id DESC LIMIT ?",
        Math.max(1, limit),
      )
      .toArray()
      .reverse();
    const messages = rows.map((row) => JSON.parse(row.message) as ModelMessage);
    const start = messages.findIndex((message) => message.role === "user");
    return start === -1 ? [] : messages.slice(start);
  }

  append(messages: readonly ModelMessage[]): void {
    for (const message of messages) {
      this.sql.exec(
        "INSERT INTO demo_messages (message, created_at) VALUES (?, ?)",
        JSON.stringify(message),
        Date.now(),
      );
    }
  }

  clear(): void {
    this.sql.exec("DELETE FROM demo_messages");
  }
}
