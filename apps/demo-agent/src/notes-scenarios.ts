// The offline demo model's scenarios over the `notes` connector (the MCP server at /mcp): a search
// that also looks through the tracker, adding a note (no approval) and deleting one (approval).
import { program, type Scenario, unfinished } from "./scenario.ts";

interface NoteHitLike {
  id: number;
  title: string;
  excerpt: string;
}

function searchNotes(query: string): Scenario {
  const words = JSON.stringify(query);
  return {
    name: "search-notes",
    code: program([
      `const { notes: found } = await notes.search_notes({ query: ${words} });`,
      "const tasks = await tracker.list_tasks({});",
      `const related = tasks.filter((t) => t.title.toLowerCase().includes(${JSON.stringify(query.toLowerCase())}));`,
      "return {",
      "  notes: found.map((n) => ({ id: n.id, title: n.title, excerpt: n.excerpt })),",
      "  tasks: related.map((t) => ({ id: t.id, title: t.title, status: t.status })),",
      "};",
    ]),
    answer(output) {
      const problem = unfinished(output, "");
      if (problem || output?.status !== "completed") return problem ?? "";
      const result = output.result as {
        notes: NoteHitLike[];
        tasks: Array<{ id: number; title: string; status: string }>;
      };
      const found =
        result.notes.length === 0
          ? [`No note mentions ${words}.`]
          : [
              `${result.notes.length} ${result.notes.length === 1 ? "note mentions" : "notes mention"} ${words}:`,
              ...result.notes.map((n) => `- note #${n.id} ${n.title}: ${n.excerpt}`),
            ];
      const tasks =
        result.tasks.length === 0
          ? "No task in the tracker mentions it."
          : `Tasks that mention it: ${result.tasks.map((t) => `#${t.id} ${t.title} (${t.status})`).join(", ")}.`;
      return [...found, tasks].join("\n");
    },
  };
}

function addNote(text: string): Scenario {
  const cut = /[:.!?]\s/.exec(text);
  const title = (cut ? text.slice(0, cut.index) : text).slice(0, 80).trim() || "Note";
  const body = cut ? text.slice(cut.index + 1).trim() || text : text;
  return {
    name: "add-note",
    code: program([
      `return await notes.add_note({ title: ${JSON.stringify(title)}, body: ${JSON.stringify(body)} });`,
    ]),
    answer(output) {
      const problem = unfinished(output, `I asked to add the note "${title}".`);
      if (problem || output?.status !== "completed") return problem ?? "";
      const note = output.result as { id: number; title: string };
      return `Added note #${note.id} "${note.title}". Adding runs at once: the server marks add_note as not destructive.`;
    },
  };
}

function deleteNote(id: number): Scenario {
  return {
    name: "delete-note",
    code: program([
      `const note = await notes.get_note({ id: ${id} });`,
      "return await notes.delete_note({ id: note.id });",
    ]),
    answer(output) {
      const problem = unfinished(
        output,
        `I asked to delete note #${id} (the server marks delete_note as destructive).`,
      );
      if (problem || output?.status !== "completed") return problem ?? "";
      const deleted = output.result as { id: number; title: string };
      return `Deleted note #${deleted.id} "${deleted.title}".`;
    },
  };
}

/** The notes scenario the words ask for, if any. */
export function matchNotesScenario(words: string): Scenario | undefined {
  const remove = /\b(?:delete|remove)\s+(?:the\s+)?note\s+#?(\d+)\b/i.exec(words);
  if (remove) return deleteNote(Number(remove[1]));
  const add = /\b(?:add|create|write|take)\s+(?:a\s+)?(?:new\s+)?note\b[:\s]*(.+)$/is.exec(words);
  if (add) return addNote((add[1] ?? "").trim().replace(/^["“]|["”]$/g, ""));
  const search =
    /\b(?:search|find|look\s+(?:up|through|for)|grep)\b.*?\bnotes?\b(?:\s+(?:for|about|on|mentioning))?\s+["“]?(.+?)["”]?[.?!]*$/i.exec(
      words,
    ) ?? /\bnotes?\b.*?\b(?:about|on|mentioning)\s+["“]?(.+?)["”]?[.?!]*$/i.exec(words);
  if (search) return searchNotes((search[1] ?? "").trim());
  return undefined;
}
