import { type Connector, functionConnector } from "codemode";
import {
  TASK_PRIORITIES,
  TASK_STATUSES,
  type Task,
  type TaskPriority,
  type TaskStatus,
  type TrackerStore,
} from "./tracker-store.ts";

const taskId = { type: "integer", minimum: 1, description: "The task's id." };
const status = { type: "string", enum: [...TASK_STATUSES] };
const task = {
  title: "Task",
  type: "object",
  properties: {
    id: { type: "integer" },
    projectId: { type: "string" },
    title: { type: "string" },
    status,
    priority: { type: "string", enum: [...TASK_PRIORITIES] },
    createdAt: { type: "string", description: "ISO 8601 time." },
  },
  required: ["id", "projectId", "title", "status", "priority", "createdAt"],
};
const empty = { type: "object", properties: {}, additionalProperties: false };

interface StatusChange {
  id: number;
  previousStatus: TaskStatus;
  status: TaskStatus;
}

/** The tracker as the sandbox global `tracker`: reads run at once, writes wait for approval. */
export function trackerConnector(store: TrackerStore): Connector {
  const requireTask = (id: number): Task => {
    const task = store.getTask(id);
    if (!task) throw new Error(`No task has the id ${id}. Use tracker.list_tasks() to find one.`);
    return task;
  };

  return functionConnector({
    name: "tracker",
    instructions: "The team's project and task tracker. Changes to tasks need a person's approval.",
    methods: {
      list_projects: {
        description: "List every project with its number of open (not done) tasks.",
        inputSchema: empty,
        outputSchema: {
          type: "array",
          items: {
            type: "object",
            properties: {
              id: { type: "string" },
              name: { type: "string" },
              description: { type: "string" },
              openTasks: { type: "integer" },
            },
            required: ["id", "name", "description", "openTasks"],
          },
        },
        execute: () =>
          store.listProjects().map((project) => ({
            ...project,
            openTasks: store.listTasks({ projectId: project.id }).filter((t) => t.status !== "done")
              .length,
          })),
      },
      list_tasks: {
        description: "List tasks, optionally of one project and/or with one status.",
        inputSchema: {
          type: "object",
          properties: {
            projectId: { type: "string", description: "A project id from list_projects." },
            status,
          },
          additionalProperties: false,
        },
        outputSchema: { type: "array", items: task },
        execute: (input: { projectId?: string; status?: TaskStatus }) => store.listTasks(input),
      },
      get_task: {
        description: "Get one task by its id.",
        inputSchema: {
          type: "object",
          properties: { id: taskId },
          required: ["id"],
          additionalProperties: false,
        },
        outputSchema: task,
        execute: (input: { id: number }) => requireTask(input.id),
      },
      stats: {
        description: "Count tasks by status and by project.",
        inputSchema: empty,
        outputSchema: {
          type: "object",
          properties: {
            total: { type: "integer" },
            byStatus: { type: "object", additionalProperties: { type: "integer" } },
            byProject: { type: "object", additionalProperties: { type: "integer" } },
          },
          required: ["total", "byStatus", "byProject"],
        },
        execute: () => {
          const tasks = store.listTasks();
          const byStatus = Object.fromEntries(
            TASK_STATUSES.map((s) => [s, tasks.filter((t) => t.status === s).length]),
          );
          const byProject = Object.fromEntries(
            store
              .listProjects()
              .map((p) => [p.id, tasks.filter((t) => t.projectId === p.id).length]),
          );
          return { total: tasks.length, byStatus, byProject };
        },
      },
      create_task: {
        description: "Create a task in a project (status todo). Needs approval.",
        inputSchema: {
          type: "object",
          properties: {
            projectId: { type: "string", description: "A project id from list_projects." },
            title: { type: "string", minLength: 1, maxLength: 200 },
            priority: { type: "string", enum: [...TASK_PRIORITIES] },
          },
          required: ["projectId", "title"],
          additionalProperties: false,
        },
        outputSchema: task,
        requiresApproval: true,
        execute: (input: { projectId: string; title: string; priority?: TaskPriority }) => {
          if (!store.getProject(input.projectId)) {
            throw new Error(`No project has the id "${input.projectId}".`);
          }
          return store.createTask({ ...input, priority: input.priority ?? "medium" });
        },
        revert: (_input: unknown, task: Task) => store.deleteTask(task.id),
      },
      update_task_status: {
        description: "Move a task to another status. Needs approval.",
        inputSchema: {
          type: "object",
          properties: { id: taskId, status },
          required: ["id", "status"],
          additionalProperties: false,
        },
        outputSchema: {
          type: "object",
          properties: { id: { type: "integer" }, previousStatus: status, status },
          required: ["id", "previousStatus", "status"],
        },
        requiresApproval: true,
        execute: (input: { id: number; status: TaskStatus }): StatusChange => {
          const task = requireTask(input.id);
          store.setStatus(task.id, input.status);
          return { id: task.id, previousStatus: task.status, status: input.status };
        },
        revert: (_input: unknown, change: StatusChange) =>
          store.setStatus(change.id, change.previousStatus),
      },
    },
  });
}
