// Saved snippets: programs the model can find with codemode.search and run with codemode.run. Each
// can run here with a JSON input; deleting one asks first.
import { api } from "./api.js";
import { confirmDialog } from "./confirm-dialog.js";
import { block, disclosure, fill, h, labelled } from "./dom.js";
import { errorText } from "./format.js";
import { readJsonInput } from "./json-input.js";
import { outputView } from "./output-view.js";
import { selectRun } from "./selection.js";

const list = document.getElementById("snippets");
/** the code each drawn snippet had, so a snippet saved again under its name is drawn anew */
const drawn = new WeakMap();

export function createSnippets({ refreshAll }) {
  const item = (snippet) => {
    const input = h("textarea", {
      class: "snippet-input",
      rows: 2,
      spellcheck: "false",
      placeholder: '{"status": "todo"} (optional)',
    });
    const field = labelled("Input (JSON)", input);
    const result = h("div", { class: "snippet-output", "aria-live": "polite" });
    const run = h("button", { type: "button", class: "run-snippet" }, "Run");
    run.addEventListener("click", async () => {
      const parsed = readJsonInput(input.value);
      if (!parsed.ok) {
        result.replaceChildren(
          h("p", { class: "error-text input-error", role: "alert" }, parsed.message),
        );
        input.setAttribute("aria-invalid", "true");
        return;
      }
      input.removeAttribute("aria-invalid");
      run.disabled = true;
      result.replaceChildren(h("span", { class: "empty" }, "running…"));
      try {
        const body = parsed.value === undefined ? {} : { input: parsed.value };
        const output = await api(`snippets/${encodeURIComponent(snippet.name)}/run`, {
          method: "POST",
          body,
        });
        result.replaceChildren(outputView(output));
        if (output?.executionId) selectRun(output.executionId);
      } catch (error) {
        result.replaceChildren(h("pre", { class: "block error-text" }, errorText(error)));
      } finally {
        run.disabled = false;
      }
      await refreshAll();
    });
    const remove = async () => {
      const sure = await confirmDialog({
        title: `Delete the snippet "${snippet.name}"?`,
        body: [h("p", {}, "The model can no longer find or run it. Its runs stay in the journal.")],
        confirmLabel: "Delete snippet",
      });
      if (!sure) return;
      try {
        await api(`snippets/${encodeURIComponent(snippet.name)}`, { method: "DELETE" });
      } catch (error) {
        result.replaceChildren(h("pre", { class: "block error-text" }, errorText(error)));
      }
      await refreshAll();
    };
    const element = h(
      "li",
      { "data-snippet": snippet.name },
      h(
        "div",
        { class: "snippet-head" },
        h("strong", {}, snippet.name),
        h("code", { class: "grow empty" }, `codemode.run(${JSON.stringify(snippet.name)}, input)`),
        h(
          "button",
          { type: "button", class: "small danger delete-snippet", onclick: remove },
          "Delete…",
        ),
      ),
      snippet.description ? h("p", { class: "hint" }, snippet.description) : null,
      disclosure("program", {}, block(snippet.code, "code snippet-code")),
      h("div", { class: "snippet-run" }, field.label, input, run),
      result,
    );
    drawn.set(element, snippet.code);
    return element;
  };

  return async function refreshSnippets() {
    const snippets = await api("snippets");
    if (snippets.length === 0) {
      fill(
        list,
        h("li", { class: "empty" }, "No snippets: save a run as one (in the run detail)."),
      );
      return;
    }
    // a repaint keeps what is typed and shown for a snippet that is still there
    const kept = new Map(
      [...list.querySelectorAll("li[data-snippet]")].map((li) => [li.dataset.snippet, li]),
    );
    fill(
      list,
      snippets.map((snippet) => {
        const old = kept.get(snippet.name);
        return old && drawn.get(old) === snippet.code ? old : item(snippet);
      }),
    );
  };
}
