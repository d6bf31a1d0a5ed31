// Saved snippets: programs the model can find with codemode.search and run with codemode.run.
import { api } from "./api.js";
import { fill, h } from "./dom.js";

const list = document.getElementById("snippets");

export function createSnippets({ refreshAll }) {
  return async function refreshSnippets() {
    const snippets = await api("snippets");
    if (snippets.length === 0) {
      fill(list, h("li", { class: "empty" }, "No snippets: save an execution as one."));
      return;
    }
    fill(
      list,
      snippets.map((snippet) =>
        h(
          "li",
          { "data-snippet": snippet.name },
          h("strong", {}, snippet.name),
          h("span", { class: "grow empty" }, `codemode.run(${JSON.stringify(snippet.name)})`),
          h(
            "button",
            {
              class: "small danger delete-snippet",
              onclick: async () => {
                await api(`snippets/${encodeURIComponent(snippet.name)}`, { method: "DELETE" });
                await refreshAll();
              },
            },
            "Delete",
          ),
          h("pre", { class: "snippet-code" }, snippet.code),
        ),
      ),
    );
  };
}
