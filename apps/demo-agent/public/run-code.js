// Run code directly, as the model would, and show the CodeModeOutput.
import { api } from "./api.js";
import { pretty } from "./dom.js";

const EXAMPLE = `async () => {
  const stats = await tracker.stats({});
  const urgent = await tracker.list_tasks({ status: "todo" });
  return { stats, todo: urgent.map((t) => t.title) };
}`;

export function createRunCode({ refreshAll }) {
  const code = document.getElementById("run-code");
  const button = document.getElementById("run-button");
  const output = document.getElementById("run-output");
  code.value = EXAMPLE;
  button.addEventListener("click", async () => {
    button.disabled = true;
    output.hidden = false;
    output.textContent = "running…";
    try {
      output.textContent = pretty(await api("run", { method: "POST", body: { code: code.value } }));
    } catch (error) {
      output.textContent = pretty({ error: error.message });
    } finally {
      button.disabled = false;
    }
    await refreshAll();
  });
}
