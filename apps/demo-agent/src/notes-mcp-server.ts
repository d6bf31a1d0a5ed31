import { IDEMPOTENCY_KEY_META } from "@codemode/connector-mcp";
import { type CallToolResult, McpServer } from "@modelcontextprotocol/server";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/server/validators/cf-worker";
import { z } from "zod";
import type { NotesStore } from "./notes-store.ts";

const noteId = z.number().int().min(1).describe("The note's id (from search_notes).");
// outputs say `number`, not `.int()`: zod writes an int's safe-integer bounds into the JSON Schema
const note = {
  id: z.number(),
  title: z.string(),
  body: z.string(),
  tags: z.array(z.string()),
  updatedAt: z.string().describe("ISO 8601 time."),
};

/** A tool result with the value both as structured content and as JSON text (for older clients). */
function answer(value: object): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: { ...value },
  };
}

/**
 * The notes MCP server: the team's notes as four tools. Reads are annotated read-only, so they run
 * at once; `delete_note` is destructive, so a Code Mode client asks a person first; `add_note` is
 * neither, and uses the caller's idempotency key so a replayed call adds nothing twice.
 */
export function createNotesMcpServer(store: NotesStore): McpServer {
  const server = new McpServer(
    { name: "demo-notes", title: "Team notes", version: "1.0.0" },
    {
      instructions:
        "The team's notes: release process, on-call, design and copy. Search them before answering questions about how the team works.",
      // no code generation: Workers forbid it
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      // the four tools never change: no client needs a stream that waits for a change
      capabilities: { tools: { listChanged: false } },
    },
  );

  server.registerTool(
    "search_notes",
    {
      title: "Search notes",
      description:
        "Find notes whose title, text or tags contain every word of the query; title matches first.",
      inputSchema: z.object({
        query: z.string().min(1).describe('Words to look for, e.g. "release".'),
        limit: z.number().int().min(1).max(20).optional().describe("At most this many (5)."),
      }),
      outputSchema: z.object({
        notes: z.array(
          z.object({
            id: z.number(),
            title: z.string(),
            tags: z.array(z.string()),
            excerpt: z.string().describe("The text around the first match."),
          }),
        ),
      }),
      annotations: { readOnlyHint: true },
    },
    async ({ query, limit }) => answer({ notes: store.search(query, limit) }),
  );

  server.registerTool(
    "get_note",
    {
      title: "Get a note",
      description: "Read one note in full.",
      inputSchema: z.object({ id: noteId }),
      outputSchema: z.object(note),
      annotations: { readOnlyHint: true },
    },
    async ({ id }) => {
      const found = store.get(id);
      if (!found) throw new Error(`No note has the id ${id}. Use search_notes to find one.`);
      return answer(found);
    },
  );

  server.registerTool(
    "add_note",
    {
      title: "Add a note",
      description: "Add a note. It only adds, so it runs without approval.",
      inputSchema: z.object({
        title: z.string().min(1).max(120),
        body: z.string().min(1).max(4000),
        tags: z.array(z.string()).max(8).optional(),
      }),
      outputSchema: z.object(note),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    async (input, context) => {
      const key = context.mcpReq._meta?.[IDEMPOTENCY_KEY_META];
      return answer(store.add(input, typeof key === "string" ? key : undefined));
    },
  );

  server.registerTool(
    "delete_note",
    {
      title: "Delete a note",
      description: "Delete a note for good. Destructive: a person approves it first.",
      inputSchema: z.object({ id: noteId }),
      outputSchema: z.object({ id: z.number(), title: z.string() }),
      annotations: { readOnlyHint: false, destructiveHint: true },
    },
    async ({ id }) => {
      const deleted = store.delete(id);
      if (!deleted) throw new Error(`No note has the id ${id}.`);
      return answer({ id: deleted.id, title: deleted.title });
    },
  );

  return server;
}
