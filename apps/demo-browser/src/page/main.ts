// The page: its tools (page info, the selection, a to-do list), the `codemode` tool made from them
// by createBrowserCodeTool with an IframeSandboxExecutor, a code box that runs programs through that
// tool, and a chat whose model (in the Worker) calls it as a client-side tool.
import { createBrowserCodeTool, IframeSandboxExecutor } from "codemode/browser";
import { renderChat } from "./chat-view.ts";
import { byId, h, pretty } from "./dom.ts";
import { createPageChat } from "./page-chat.ts";
import { createPageTools, type PageSource } from "./page-tools.ts";
import { TodoList } from "./todos.ts";

const todos = new TodoList([
  "Water the plants",
  { text: "Book the train to the conference", done: true },
  "Write the release notes",
]);

// --- the selection: the tool reads the user's last selection on the page, because typing into the
// chat moves the focus (and with it the selection) into the input.

const selectionView = byId("selection");
let lastSelection = "";

function currentSelection(): string {
  const focused = document.activeElement;
  if (focused instanceof HTMLInputElement || focused instanceof HTMLTextAreaElement) return "";
  const selection = document.getSelection();
  return selection && !selection.isCollapsed ? selection.toString() : "";
}

document.addEventListener("selectionchange", () => {
  const text = currentSelection();
  if (!text.trim()) return;
  lastSelection = text;
  selectionView.textContent = text.trim();
  selectionView.classList.remove("empty");
});

const page: PageSource = {
  title: () => document.title,
  url: () => window.location.href,
  headings: () =>
    [...document.querySelectorAll("main h2, main h3")]
      .map((heading) => heading.firstChild?.textContent?.trim() ?? "")
      .filter(Boolean),
  selection: () => currentSelection() || lastSelection,
};

// --- the tools and the code tool

const pageTools = createPageTools(todos, page);
const codemodeTool = createBrowserCodeTool({
  tools: pageTools,
  executor: new IframeSandboxExecutor({ timeout: 10_000 }),
});

byId("tool-description").textContent = codemodeTool.description;
byId("omitted").replaceChildren(
  ...(codemodeTool.omitted.length === 0
    ? ["Every page tool is in the code tool."]
    : [
        "Left out of the code tool: ",
        ...codemodeTool.omitted.flatMap((name, index) => [
          index > 0 ? ", " : "",
          h("code", { "data-omitted": name }, name),
          pageTools[name]?.needsApproval ? " (needs approval)" : "",
        ]),
        ". The sandbox cannot stop for a person's approval; the page offers it as a button that asks first.",
      ]),
);

// --- the to-do list

const todoList = byId("todos");

function renderTodos() {
  const items = todos.list();
  todoList.replaceChildren(
    ...items.map((todo) =>
      h(
        "li",
        { "data-todo": todo.id, "data-done": todo.done },
        h("input", {
          type: "checkbox",
          checked: todo.done,
          disabled: todo.done,
          "aria-label": `Complete to-do ${todo.id}`,
          onchange: () => todos.complete(todo.id),
        }),
        h("span", { class: "todo-id" }, `#${todo.id}`),
        h("span", { class: "todo-text grow" }, todo.text),
        h(
          "button",
          { type: "button", class: "small secondary", onclick: () => todos.remove(todo.id) },
          "Remove",
        ),
      ),
    ),
  );
  if (items.length === 0) todoList.append(h("li", { class: "empty" }, "Nothing to do."));
  todoList.dataset.count = String(items.length);
}

todos.subscribe(renderTodos);
renderTodos();

byId<HTMLFormElement>("todo-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>("todo-input");
  if (!input.value.trim()) return;
  todos.add(input.value);
  input.value = "";
});

byId("todo-clear").addEventListener("click", () => {
  // clearTodos needs approval: the person approves here, outside the sandbox
  if (window.confirm("Remove every to-do?")) pageTools.clearTodos?.execute({});
});

// --- the code box

const runButton = byId<HTMLButtonElement>("run-button");
const runOutput = byId("run-output");

runButton.addEventListener("click", async () => {
  const code = byId<HTMLTextAreaElement>("run-code").value;
  runButton.disabled = true;
  runOutput.hidden = false;
  runOutput.dataset.state = "running";
  runOutput.replaceChildren(h("span", { class: "empty" }, "running…"));
  try {
    const { result, logs } = await codemodeTool.execute({ code });
    runOutput.dataset.state = "ok";
    runOutput.replaceChildren(
      h("div", { class: "label" }, "result"),
      h("pre", { class: "run-result" }, pretty(result)),
      h("div", { class: "label" }, "logs"),
      h("pre", { class: "run-logs" }, logs.length ? logs.join("\n") : "(none)"),
    );
  } catch (error) {
    runOutput.dataset.state = "error";
    runOutput.replaceChildren(
      h("div", { class: "label" }, "error"),
      h("pre", { class: "run-error" }, error instanceof Error ? error.message : String(error)),
    );
  } finally {
    runButton.disabled = false;
  }
});

// --- the chat

const chat = createPageChat({ codeTool: codemodeTool });
const log = byId("chat-log");
const input = byId<HTMLInputElement>("chat-input");
const send = byId<HTMLButtonElement>("chat-send");
const stop = byId<HTMLButtonElement>("chat-stop");
let sending = false;
let frame = 0;

function render() {
  cancelAnimationFrame(frame);
  frame = 0;
  renderChat(log, chat.messages, chat.error);
  const busy = sending || chat.status === "submitted" || chat.status === "streaming";
  send.disabled = busy;
  stop.disabled = !busy;
  log.dataset.status = chat.status;
}

chat.subscribe(() => {
  frame ||= requestAnimationFrame(render);
});

byId<HTMLFormElement>("chat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text || sending) return;
  input.value = "";
  sending = true;
  render();
  try {
    // resolves once the whole turn is over: the model's call, the page's run, and the answer
    await chat.sendMessage({ text });
  } finally {
    sending = false;
    render();
    log.dataset.turns = String(Number(log.dataset.turns ?? 0) + 1);
  }
});

stop.addEventListener("click", () => void chat.stop());

// --- the model badge

const badge = byId("model");
fetch("/api/model")
  .then(async (response) => {
    const model = (await response.json()) as { provider?: string; label?: string; error?: string };
    badge.textContent = model.label ?? model.error ?? "unknown model";
    badge.className = `badge ${model.provider === "offline" ? "offline" : ""}`;
    badge.dataset.provider = model.provider ?? "error";
  })
  .catch((error: unknown) => {
    badge.textContent = `no model: ${String(error)}`;
  });

render();
document.body.dataset.ready = "";
