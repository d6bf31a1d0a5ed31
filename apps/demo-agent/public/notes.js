// The notes the MCP server at /mcp serves, as they are now (a deleted note disappears here).
import { api } from "./api.js";
import { fill, h } from "./dom.js";

const target = document.getElementById("notes");

export async function refreshNotes() {
  const { notes } = await api("notes");
  fill(
    target,
    h(
      "table",
      { class: "notes" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["id", "title", "tags"].map((name) => h("th", {}, name)),
        ),
      ),
      h(
        "tbody",
        {},
        notes.map((note) =>
          h(
            "tr",
            { "data-note": note.id, title: note.body },
            h("td", {}, String(note.id)),
            h("td", { class: "note-title" }, note.title),
            h("td", {}, note.tags.join(", ")),
          ),
        ),
      ),
    ),
  );
}
