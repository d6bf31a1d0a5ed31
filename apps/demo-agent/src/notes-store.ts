// The data behind the notes MCP server (`/mcp`): the team's notes in the Durable Object's SQLite,
// next to the tracker's tables, under the `demo_` prefix.
import type { SqlLike } from "./sql-like.ts";

export interface Note {
  id: number;
  title: string;
  body: string;
  tags: string[];
  updatedAt: string;
}

/** A search result: the note without its body, and the part of it that matched. */
export interface NoteHit {
  id: number;
  title: string;
  tags: string[];
  excerpt: string;
}

type NoteRow = {
  id: number;
  title: string;
  body: string;
  tags: string;
  updated_at: number;
};

const SEED_NOTES: Array<[title: string, body: string, tags: string[]]> = [
  [
    "Release checklist",
    "Before a release: freeze main, run the whole test suite, write the release notes, tag the version and announce it in #releases. Mobile releases also wait for the store review.",
    ["release", "process"],
  ],
  [
    "Release notes style",
    "Write release notes in the imperative, grouped under Added, Changed and Fixed. One line per change, with the task number when there is one.",
    ["release", "writing"],
  ],
  [
    "On-call handbook",
    "The on-call engineer watches the error-rate alert, answers pages within 15 minutes and writes a short incident note for anything customers saw.",
    ["infra", "ops"],
  ],
  [
    "Pricing page copy",
    "Three plans: Free, Team at 12 dollars per seat and month, and Enterprise on request. Lead with the Team plan; the redesign keeps the comparison table.",
    ["website", "marketing"],
  ],
  [
    "Offline mode design",
    "The app keeps the last 50 tasks in SQLite on the device and syncs when it is back online. Conflicts: the newest change wins, and the user sees what was replaced.",
    ["mobile", "design"],
  ],
];

const EXCERPT_LENGTH = 120;

const toNote = (row: NoteRow): Note => ({
  id: row.id,
  title: row.title,
  body: row.body,
  tags: JSON.parse(row.tags) as string[],
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** The part of the body around the first word that matched (the start when only the title did). */
function excerptOf(body: string, words: string[]): string {
  const lower = body.toLowerCase();
  const at = Math.min(...words.map((word) => lower.indexOf(word)).filter((index) => index >= 0));
  const start = Number.isFinite(at) ? Math.max(0, at - 30) : 0;
  const text = body.slice(start, start + EXCERPT_LENGTH);
  return `${start > 0 ? "…" : ""}${text}${start + EXCERPT_LENGTH < body.length ? "…" : ""}`;
}

/** Notes over `ctx.storage.sql`; creates its table and seeds it on first use. */
export class NotesStore {
  constructor(
    private readonly sql: SqlLike,
    private readonly now: () => number = Date.now,
  ) {
    sql.exec(`CREATE TABLE IF NOT EXISTS demo_notes (
      id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, body TEXT NOT NULL,
      tags TEXT NOT NULL, updated_at INTEGER NOT NULL, idempotency_key TEXT UNIQUE)`);
    const count = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM demo_notes").one().n;
    if (count === 0) {
      const start = this.now() - SEED_NOTES.length * 86_400_000;
      SEED_NOTES.forEach(([title, body, tags], index) => {
        this.insert({ title, body, tags }, start + index * 86_400_000, null);
      });
    }
  }

  private insert(
    note: { title: string; body: string; tags: string[] },
    time: number,
    key: string | null,
  ): Note {
    const row = this.sql
      .exec<NoteRow>(
        "INSERT INTO demo_notes (title, body, tags, updated_at, idempotency_key) VALUES (?, ?, ?, ?, ?) RETURNING *",
        note.title,
        note.body,
        JSON.stringify(note.tags),
        time,
        key,
      )
      .one();
    return toNote(row);
  }

  list(): Note[] {
    return this.sql.exec<NoteRow>("SELECT * FROM demo_notes ORDER BY id").toArray().map(toNote);
  }

  get(id: number): Note | undefined {
    const row = this.sql.exec<NoteRow>("SELECT * FROM demo_notes WHERE id = ?", id).toArray()[0];
    return row && toNote(row);
  }

  /** Notes with every word of the query in their title, body or tags; title matches first. */
  search(query: string, limit = 5): NoteHit[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return [];
    const scored = this.list().flatMap((note) => {
      const title = note.title.toLowerCase();
      const text = `${title} ${note.body.toLowerCase()} ${note.tags.join(" ").toLowerCase()}`;
      if (!words.every((word) => text.includes(word))) return [];
      const score = words.filter((word) => title.includes(word)).length;
      return [{ note, score }];
    });
    return scored
      .sort((a, b) => b.score - a.score || a.note.id - b.note.id)
      .slice(0, Math.max(1, limit))
      .map(({ note }) => ({
        id: note.id,
        title: note.title,
        tags: note.tags,
        excerpt: excerptOf(note.body, words),
      }));
  }

  /**
   * Adds a note. A call that repeats an idempotency key gets the note the first call added, so a
   * replayed request never adds it twice.
   */
  add(note: { title: string; body: string; tags?: string[] }, idempotencyKey?: string): Note {
    if (idempotencyKey) {
      const row = this.sql
        .exec<NoteRow>("SELECT * FROM demo_notes WHERE idempotency_key = ?", idempotencyKey)
        .toArray()[0];
      if (row) return toNote(row);
    }
    return this.insert({ ...note, tags: note.tags ?? [] }, this.now(), idempotencyKey ?? null);
  }

  /** Deletes a note; returns it, or undefined when there was none. */
  delete(id: number): Note | undefined {
    const note = this.get(id);
    if (note) this.sql.exec("DELETE FROM demo_notes WHERE id = ?", id);
    return note;
  }
}
