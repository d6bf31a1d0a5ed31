// The agent's own data: a small project/task tracker in the Durable Object's SQLite. The runtime's
// journal lives in the same database under its own table names; these use the `demo_` prefix.
import type { SqlLike } from "./sql-like.ts";

export const TASK_STATUSES = ["todo", "doing", "done"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_PRIORITIES = ["low", "medium", "high"] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

export type Project = {
  id: string;
  name: string;
  description: string;
};

export interface Task {
  id: number;
  projectId: string;
  title: string;
  status: TaskStatus;
  priority: TaskPriority;
  createdAt: string;
}

type TaskRow = {
  id: number;
  project_id: string;
  title: string;
  status: string;
  priority: string;
  created_at: number;
};

const SEED_PROJECTS: Project[] = [
  { id: "website", name: "Website", description: "The public marketing site and its blog." },
  { id: "mobile", name: "Mobile app", description: "The iOS and Android app." },
  { id: "infra", name: "Infrastructure", description: "Build, deploy and monitoring." },
];

const SEED_TASKS: Array<[string, string, TaskStatus, TaskPriority]> = [
  ["website", "Redesign the pricing page", "doing", "high"],
  ["website", "Write the launch blog post", "todo", "medium"],
  ["website", "Fix broken links in the footer", "done", "low"],
  ["mobile", "Add offline mode", "todo", "high"],
  ["mobile", "Crash on login with an empty password", "doing", "high"],
  ["infra", "Move CI to the new runners", "todo", "medium"],
  ["infra", "Alert when the error rate doubles", "done", "medium"],
];

const toTask = (row: TaskRow): Task => ({
  id: row.id,
  projectId: row.project_id,
  title: row.title,
  status: row.status as TaskStatus,
  priority: row.priority as TaskPriority,
  createdAt: new Date(row.created_at).toISOString(),
});

/** Projects and tasks over `ctx.storage.sql`; creates its tables and seeds them on first use. */
export class TrackerStore {
  constructor(
    private readonly sql: SqlLike,
    private readonly now: () => number = Date.now,
  ) {
    sql.exec(`CREATE TABLE IF NOT EXISTS demo_projects (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS demo_tasks (
      id INTEGER PRIMARY KEY AUTOINCREMENT, project_id TEXT NOT NULL REFERENCES demo_projects(id),
      title TEXT NOT NULL, status TEXT NOT NULL, priority TEXT NOT NULL, created_at INTEGER NOT NULL)`);
    const count = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM demo_projects").one().n;
    if (count === 0) this.seed();
  }

  private seed(): void {
    for (const project of SEED_PROJECTS) {
      this.sql.exec(
        "INSERT INTO demo_projects (id, name, description) VALUES (?, ?, ?)",
        project.id,
        project.name,
        project.description,
      );
    }
    const start = this.now() - SEED_TASKS.length * 3_600_000;
    SEED_TASKS.forEach(([projectId, title, status, priority], index) => {
      this.sql.exec(
        "INSERT INTO demo_tasks (project_id, title, status, priority, created_at) VALUES (?, ?, ?, ?, ?)",
        projectId,
        title,
        status,
        priority,
        start + index * 3_600_000,
      );
    });
  }

  listProjects(): Project[] {
    return this.sql
      .exec<Project>("SELECT id, name, description FROM demo_projects ORDER BY name")
      .toArray();
  }

  getProject(id: string): Project | undefined {
    return this.sql
      .exec<Project>("SELECT id, name, description FROM demo_projects WHERE id = ?", id)
      .toArray()[0];
  }

  listTasks(filter: { projectId?: string; status?: TaskStatus } = {}): Task[] {
    const where: string[] = [];
    const bindings: string[] = [];
    if (filter.projectId !== undefined) {
      where.push("project_id = ?");
      bindings.push(filter.projectId);
    }
    if (filter.status !== undefined) {
      where.push("status = ?");
      bindings.push(filter.status);
    }
    const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
    return this.sql
      .exec<TaskRow>(`SELECT * FROM demo_tasks ${clause} ORDER BY id`, ...bindings)
      .toArray()
      .map(toTask);
  }

  getTask(id: number): Task | undefined {
    const row = this.sql.exec<TaskRow>("SELECT * FROM demo_tasks WHERE id = ?", id).toArray()[0];
    return row && toTask(row);
  }

  createTask(input: { projectId: string; title: string; priority: TaskPriority }): Task {
    const row = this.sql
      .exec<TaskRow>(
        "INSERT INTO demo_tasks (project_id, title, status, priority, created_at) VALUES (?, ?, 'todo', ?, ?) RETURNING *",
        input.projectId,
        input.title,
        input.priority,
        this.now(),
      )
      .one();
    return toTask(row);
  }

  deleteTask(id: number): void {
    this.sql.exec("DELETE FROM demo_tasks WHERE id = ?", id);
  }

  setStatus(id: number, status: TaskStatus): void {
    this.sql.exec("UPDATE demo_tasks SET status = ? WHERE id = ?", status, id);
  }
}
