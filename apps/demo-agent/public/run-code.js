// Run code directly, as the model would, and show its outcome; the run opens in the run detail.
import { api } from "./api.js";
import { h } from "./dom.js";
import { errorText } from "./format.js";
import { outputView } from "./output-view.js";
import { selectRun } from "./selection.js";

const EXAMPLE = `async () => {
  const stats = await tracker.stats({});
  const todo = await tracker.list_tasks({ status: "todo" });
  return { stats, todo: todo.map((t) => t.title) };
}`;

export function createRunCode({ refreshAll }) {
  const code = document.getElementById("run-code");
  const button = document.getElementById("run-button");
  const output = document.getElementById("run-output");
  code.value = EXAMPLE;
  button.addEventListener("click", async () => {
    button.disabled = true;
    output.hidden = false;
    output.replaceChildren(h("span", { class: "empty" }, "running…"));
    try {
      const answer = await api("run", { method: "POST", body: { code: code.value } });
      output.replaceChildren(outputView(answer));
      if (answer?.executionId) selectRun(answer.executionId);
    } catch (error) {
      output.replaceChildren(h("pre", { class: "block error-text" }, errorText(error)));
    } finally {
      button.disabled = false;
    }
    await refreshAll();
  });
}
