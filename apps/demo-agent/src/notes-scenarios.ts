// The offline demo model's scenarios over the `notes` connector (the MCP server at /mcp): a search
// that also looks through the tracker, adding a note (no approval) and deleting one (approval). The
// text of a note and the words of a search come from precise patterns, checked by `argumentOf`.
import { argumentOf } from "./request-text.ts";
import { type Matched, plural, program, type Scenario, scenario } from "./scenario.ts";

interface NoteHitLike {
  id: number;
  title: string;
  excerpt: string;
}

function searchNotes(query: string): Scenario {
  const words = JSON.stringify(query);
  return scenario(
    "search-notes",
    program([
      `const { notes: found } = await notes.search_notes({ query: ${words} });`,
      "const tasks = await tracker.list_tasks({});",
      `const related = tasks.filter((t) => t.title.toLowerCase().includes(${JSON.stringify(query.toLowerCase())}));`,
      "return {",
      "  notes: found.map((n) => ({ id: n.id, title: n.title, excerpt: n.excerpt })),",
      "  tasks: related.map((t) => ({ id: t.id, title: t.title, status: t.status })),",
      "};",
    ]),
    {
      completed(value) {
        const result = value as {
          notes: NoteHitLike[];
          tasks: Array<{ id: number; title: string; status: string }>;
        };
        const found =
          result.notes.length === 0
            ? [`No note mentions ${words}.`]
            : [
                `${plural(result.notes.length, "note mentions", "notes mention")} ${words}:`,
                ...result.notes.map((n) => `- note #${n.id} ${n.title}: ${n.excerpt}`),
              ];
        const tasks =
          result.tasks.length === 0
            ? "No task in the tracker mentions it."
            : `Tasks that mention it: ${result.tasks.map((t) => `#${t.id} ${t.title} (${t.status})`).join(", ")}.`;
        return [...found, tasks].join("\n");
      },
    },
  );
}

function addNote(text: string): Scenario {
  const cut = /[:.!?]\s/.exec(text);
  const title = (cut ? text.slice(0, cut.index) : text).slice(0, 80).trim() || "Note";
  const body = cut ? text.slice(cut.index + 1).trim() || text : text;
  return scenario(
    "add-note",
    program([
      `return await notes.add_note({ title: ${JSON.stringify(title)}, body: ${JSON.stringify(body)} });`,
    ]),
    {
      asked: `add the note "${title}"`,
      gate: `adding the note "${title}"`,
      writes: true,
      completed(result) {
        const note = result as { id: number; title: string };
        return `Added note #${note.id} "${note.title}". Adding runs at once: the server marks add_note as not destructive.`;
      },
    },
  );
}

function deleteNote(id: number): Scenario {
  return scenario(
    "delete-note",
    program([
      `const note = await notes.get_note({ id: ${id} });`,
      "return await notes.delete_note({ id: note.id });",
    ]),
    {
      asked: `delete note #${id} (the server marks delete_note as destructive)`,
      gate: `deleting note #${id}`,
      writes: true,
      completed(result) {
        const deleted = result as { id: number; title: string };
        return `Deleted note #${deleted.id} "${deleted.title}".`;
      },
    },
  );
}

const DELETE = /^(?:delete|remove) (?:the )?note (?:#|number )?(\d{1,9})$/i;
const ADD =
  /^(?:add|create|write|take|make)(?: down)?(?: a| an)?(?: new)? note(?: (?:called|titled|saying|that says))?:? (.+)$/i;
const SEARCHES = [
  /^(?:search|find|look up|look for|look through|grep)(?: in| through)? (?:the |my |our |all )?notes?(?: (?:for|about|on|mentioning|that mention|with))? (.+)$/i,
  /^what do (?:the |my |our )?notes say (?:about|on) (.+)$/i,
  /^(?:which|what) notes (?:mention|talk about|are about) (.+)$/i,
];

/** The notes scenario the tidied words ask for, a refusal, or undefined when they are not about notes. */
export function matchNotesScenario(words: string): Matched | undefined {
  const remove = DELETE.exec(words);
  if (remove) return deleteNote(Number(remove[1]));
  const add = ADD.exec(words);
  if (add) {
    const text = argumentOf(add[1] ?? "");
    return text.ok ? addNote(text.text) : { cannot: `I cannot write that note: ${text.why}` };
  }
  for (const pattern of SEARCHES) {
    const search = pattern.exec(words);
    if (!search) continue;
    const query = argumentOf(search[1] ?? "");
    if (!query.ok) return { cannot: `I cannot search for that: ${query.why}` };
    if (query.text.length > 100) return { cannot: "a search has at most 100 characters" };
    return searchNotes(query.text);
  }
  return undefined;
}
