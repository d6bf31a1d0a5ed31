import type { ModelInfo } from "@codemode/demo-kit";
import { type CodemodeRuntime, type DecisionHandle, parseDecisionHandle } from "codemode";
import type { DemoStores } from "./demo-stores.ts";
import { rollbackMessage } from "./rollback-message.ts";
import type { RunEvents } from "./run-events.ts";
import { DEMO_SUGGESTIONS } from "./suggestions.ts";
import { waitingRuns } from "./waiting-run.ts";

/**
 * A decision from the page's queue: it carries the handle of the calls the queue showed
 * (`GET /api/queue`), and decides those or nothing.
 */
export interface QueueAnswer {
  approved: boolean;
  handle: DecisionHandle;
  reason?: string | undefined;
}

/** What a decision from the page's queue did (through the chat when the chat asked for it). */
export interface QueueDecision {
  status: string;
  executionId: string;
  via: "chat" | "queue";
  error?: string;
  /** the calls shown no longer waited as shown: already decided, nothing ran */
  stale?: true;
}

/** Characters of a snippet run's JSON input. */
export const MAX_SNIPPET_INPUT_CHARS = 100_000;

/** What the HTTP API works on: the agent's runtime and data, and a way to tell the open pages. */
export interface AgentApi {
  runtime: CodemodeRuntime;
  stores: DemoStores;
  /** the connector names, for describe */
  connectors: string[];
  model(): ModelInfo;
  /** the runs' events, for their timelines */
  events: RunEvents;
  /** something the page shows changed; `note` also goes to the chat */
  changed(note?: string): void;
  /** approves or rejects a paused run from the page's queue */
  decide(executionId: string, decision: QueueAnswer): Promise<QueueDecision>;
}

/** A request the page got wrong: answered with status 400 and the message. */
class BadRequest extends Error {}

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value ?? null), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });

async function body(request: Request): Promise<Record<string, unknown>> {
  try {
    const value = (await request.json()) as unknown;
    if (typeof value === "object" && value !== null) return value as Record<string, unknown>;
  } catch {
    // falls through
  }
  throw new BadRequest("The body must be a JSON object.");
}

/** The `handle` of a decision, checked for its shape; the runtime checks that it still holds. */
function handleOf(fields: Record<string, unknown>, executionId: string): DecisionHandle {
  try {
    return parseDecisionHandle(fields.handle, executionId);
  } catch (error) {
    throw new BadRequest(
      `"handle" must be the handle of the calls shown, as GET /api/queue gives it. ${(error as Error).message}`,
    );
  }
}

function text(fields: Record<string, unknown>, name: string): string {
  const value = fields[name];
  if (typeof value !== "string" || value === "") throw new BadRequest(`"${name}" is required.`);
  return value;
}

type Handler = (request: Request, match: RegExpExecArray, api: AgentApi) => Promise<Response>;

const routes: Array<[method: string, path: RegExp, handler: Handler]> = [
  ["GET", /^\/api\/model$/, async (_r, _m, api) => json(api.model())],
  ["GET", /^\/api\/suggestions$/, async () => json(DEMO_SUGGESTIONS)],
  [
    "POST",
    /^\/api\/run$/,
    async (request, _m, api) => {
      const output = await api.runtime.execute({ code: text(await body(request), "code") });
      api.changed();
      return json(output);
    },
  ],
  ["GET", /^\/api\/pending$/, async (_r, _m, api) => json(await api.runtime.pending())],
  [
    "GET",
    /^\/api\/queue$/,
    async (_r, _m, api) => json(await waitingRuns(api.runtime, api.stores)),
  ],
  [
    "POST",
    /^\/api\/approve$/,
    async (request, _m, api) => {
      const fields = await body(request);
      const executionId = text(fields, "executionId");
      const handle = handleOf(fields, executionId);
      const reason = typeof fields.reason === "string" ? fields.reason : undefined;
      const decided = await api.decide(executionId, { approved: true, handle, reason });
      api.changed();
      return json(decided, decided.error ? 409 : 200);
    },
  ],
  [
    "POST",
    /^\/api\/reject$/,
    async (request, _m, api) => {
      const fields = await body(request);
      const executionId = text(fields, "executionId");
      const handle = handleOf(fields, executionId);
      const reason = typeof fields.reason === "string" ? fields.reason : undefined;
      const decided = await api.decide(executionId, { approved: false, handle, reason });
      api.changed();
      return json({ ...decided, rejected: !decided.error }, decided.error ? 409 : 200);
    },
  ],
  [
    "POST",
    /^\/api\/cancel$/,
    async (request, _m, api) => {
      const fields = await body(request);
      const executionId = text(fields, "executionId");
      const reason = typeof fields.reason === "string" ? fields.reason : undefined;
      // a running run's pass is stopped and settles before this answers; a waiting one ends at once
      const cancelled = await api.runtime.cancel({
        executionId,
        by: "a person on the demo page",
        ...(reason === undefined ? {} : { reason }),
      });
      api.changed(
        cancelled.cancelled
          ? `Run ${executionId} was cancelled: nothing of it runs any more.`
          : undefined,
      );
      return json(cancelled, cancelled.cancelled ? 200 : 409);
    },
  ],
  [
    "GET",
    /^\/api\/executions$/,
    async (request, _m, api) => {
      const limit = Number(new URL(request.url).searchParams.get("limit") ?? 20);
      return json(await api.runtime.executions(Number.isFinite(limit) ? limit : 20));
    },
  ],
  [
    "GET",
    /^\/api\/executions\/([^/]+)$/,
    async (_r, match, api) => {
      const execution = await api.runtime.execution(decodeURIComponent(match[1] ?? ""));
      return execution ? json(execution) : json({ error: "No such execution." }, 404);
    },
  ],
  [
    "GET",
    /^\/api\/executions\/([^/]+)\/timeline$/,
    async (_r, match, api) => {
      const id = decodeURIComponent(match[1] ?? "");
      const execution = await api.runtime.execution(id);
      if (!execution) return json({ error: "No such execution." }, 404);
      return json({ execution, events: api.events.list(id) });
    },
  ],
  [
    "GET",
    /^\/api\/executions\/([^/]+)\/rollback-preview$/,
    async (_r, match, api) =>
      json(await api.runtime.previewRollback({ executionId: decodeURIComponent(match[1] ?? "") })),
  ],
  [
    "POST",
    /^\/api\/rollback$/,
    async (request, _m, api) => {
      const executionId = text(await body(request), "executionId");
      const report = await api.runtime.rollback({ executionId });
      const run = await api.runtime.execution(executionId);
      const withdrawn = (run?.calls ?? []).filter((call) => call.state === "withdrawn");
      const message = rollbackMessage(executionId, report, run?.status ?? "gone", withdrawn);
      const status = run?.status ?? "gone";
      api.changed(message);
      return json({ report, status, message });
    },
  ],
  ["GET", /^\/api\/snippets$/, async (_r, _m, api) => json(await api.runtime.snippets())],
  [
    "POST",
    /^\/api\/snippets$/,
    async (request, _m, api) => {
      const fields = await body(request);
      const description = typeof fields.description === "string" ? fields.description : "";
      await api.runtime.saveSnippet(text(fields, "name"), {
        executionId: text(fields, "executionId"),
        ...(description ? { description } : {}),
      });
      api.changed();
      return json({ saved: true });
    },
  ],
  [
    "POST",
    /^\/api\/snippets\/([^/]+)\/run$/,
    async (request, match, api) => {
      const name = decodeURIComponent(match[1] ?? "");
      const fields = await body(request);
      const input = JSON.stringify(fields.input ?? null);
      if (input.length > MAX_SNIPPET_INPUT_CHARS) {
        throw new BadRequest(
          `The input may be at most ${MAX_SNIPPET_INPUT_CHARS} characters of JSON.`,
        );
      }
      const output = await api.runtime.execute({
        code: `async () => codemode.run(${JSON.stringify(name)}, ${input})`,
      });
      api.changed();
      return json(output);
    },
  ],
  [
    "DELETE",
    /^\/api\/snippets\/([^/]+)$/,
    async (_r, match, api) => {
      const deleted = await api.runtime.deleteSnippet(decodeURIComponent(match[1] ?? ""));
      api.changed();
      return json({ deleted });
    },
  ],
  [
    "GET",
    /^\/api\/describe$/,
    async (request, _m, api) => {
      const target = new URL(request.url).searchParams.get("target");
      if (target) return json(await api.runtime.describe(target));
      await api.runtime.ready();
      return json({
        toolDescription: api.runtime.tool().description,
        connectors: await Promise.all(api.connectors.map((name) => api.runtime.describe(name))),
      });
    },
  ],
  [
    "GET",
    /^\/api\/search$/,
    async (request, _m, api) =>
      json(await api.runtime.search(new URL(request.url).searchParams.get("q") ?? "")),
  ],
  [
    "GET",
    /^\/api\/tracker$/,
    async (_r, _m, api) =>
      json({
        projects: api.stores.tracker.listProjects(),
        tasks: api.stores.tracker.listTasks(),
      }),
  ],
  ["GET", /^\/api\/notes$/, async (_r, _m, api) => json({ notes: api.stores.notes.list() })],
];

/** The agent's HTTP JSON API; errors come back as `{ error }` with a 4xx or 500 status. */
export async function handleApi(request: Request, api: AgentApi): Promise<Response> {
  const { pathname } = new URL(request.url);
  const allowed: string[] = [];
  for (const [method, path, handler] of routes) {
    const match = path.exec(pathname);
    if (!match) continue;
    if (method !== request.method) {
      allowed.push(method);
      continue;
    }
    try {
      return await handler(request, match, api);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // CodemodeErrors (a run that is not paused, a bad snippet name) carry a code: the caller's mistake
      const expected =
        error instanceof BadRequest || (error instanceof Error && "code" in error && !!error.code);
      return json({ error: message }, expected ? 400 : 500);
    }
  }
  if (allowed.length > 0) {
    return new Response(JSON.stringify({ error: `Use ${allowed.join(" or ")}.` }), {
      status: 405,
      headers: { allow: allowed.join(", "), "content-type": "application/json" },
    });
  }
  return json({ error: `No API route ${request.method} ${pathname}.` }, 404);
}
