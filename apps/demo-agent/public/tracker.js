// The tracker's data as it is now, to see what approvals and rollbacks changed.
import { api } from "./api.js";
import { fill, h } from "./dom.js";

const target = document.getElementById("tracker");

export async function refreshTracker() {
  const { projects, tasks } = await api("tracker");
  const names = new Map(projects.map((project) => [project.id, project.name]));
  fill(
    target,
    h(
      "table",
      { class: "tasks" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["id", "project", "title", "status", "priority"].map((name) => h("th", {}, name)),
        ),
      ),
      h(
        "tbody",
        {},
        tasks.map((task) =>
          h(
            "tr",
            { "data-task": task.id },
            h("td", {}, String(task.id)),
            h("td", {}, names.get(task.projectId) ?? task.projectId),
            h("td", { class: "task-title" }, task.title),
            h("td", {}, task.status),
            h("td", {}, task.priority),
          ),
        ),
      ),
    ),
  );
}
