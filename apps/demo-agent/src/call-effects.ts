import type { PendingAction } from "codemode";
import type { CallEffect } from "./chat-event.ts";
import type { DemoStores } from "./demo-stores.ts";

type Fields = Record<string, unknown>;

const fields = (value: unknown): Fields =>
  typeof value === "object" && value !== null ? (value as Fields) : {};

/** Quoted, cut to a line: a title as a sentence shows it. */
const quote = (value: unknown) => JSON.stringify(String(value ?? "").slice(0, 80));

/**
 * What a waiting call would change, read from the demo's data now: a task's status before and
 * after, the note a delete would remove, the item a POST would add. Undefined where the demo
 * cannot say.
 */
export function callEffect(call: PendingAction, stores: DemoStores): CallEffect | undefined {
  const input = fields(call.args);
  const what = `${call.connector}.${call.method}`;
  switch (what) {
    case "tracker.update_task_status": {
      const task = stores.tracker.getTask(Number(input.id));
      if (!task) return { summary: `No task has the id ${String(input.id)}: the call will fail.` };
      return {
        summary: `Task #${task.id} ${quote(task.title)}: ${task.status} → ${String(input.status)}`,
        before: { status: task.status },
        after: { status: input.status },
      };
    }
    case "tracker.create_task": {
      const project = stores.tracker.getProject(String(input.projectId));
      if (!project) {
        return { summary: `No project has the id ${quote(input.projectId)}: the call will fail.` };
      }
      const after = {
        title: input.title,
        project: project.name,
        priority: input.priority ?? "medium",
      };
      return { summary: `Adds the task ${quote(input.title)} to ${project.name}`, after };
    }
    case "notes.delete_note": {
      const note = stores.notes.get(Number(input.id));
      if (!note) return { summary: `No note has the id ${String(input.id)}: nothing to delete.` };
      return {
        summary: `Deletes note #${note.id} ${quote(note.title)} (the notes server cannot undo it)`,
        before: { title: note.title, body: note.body, tags: note.tags },
        after: null,
      };
    }
    case "catalog.createItem": {
      const body = fields(input.body);
      return {
        summary: `Adds ${quote(body.name)} at $${Number(body.price).toFixed(2)} to the catalog`,
        after: body,
      };
    }
    case "catalog.deleteItem": {
      const item = stores.catalog.get(Number(input.id));
      if (!item) return { summary: `No catalog item has the id ${String(input.id)}.` };
      return { summary: `Removes ${quote(item.name)} from the catalog`, before: item, after: null };
    }
    default:
      return undefined;
  }
}
