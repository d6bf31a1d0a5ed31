import {
  type Catalog,
  type CatalogOptions,
  type ConnectorDefinition,
  createCatalog,
  createToolDescription,
  type DescribeOutput,
  normalizeCode,
  type SearchOutput,
  TypegenError,
} from "@codemode/typegen";
import { CodemodeError } from "./codemode-error.ts";
import type {
  CallContext,
  Connector,
  ConnectorMethod,
  ExecutionEndStatus,
  PassEndStatus,
} from "./connector.ts";
import type {
  ExecuteLimits,
  Executor,
  HostNamespaces,
  RecordedCall,
  ReplayHint,
} from "./executor.ts";
import type {
  ExecutionRecord,
  ExecutionStatus,
  Journal,
  JournalEntry,
  JournalStore,
} from "./journal-store.ts";
import { knownEncodings } from "./known-encodings.ts";
import { after, createAbortController, randomHex } from "./platform.ts";
import { SANDBOX_PRELUDE } from "./sandbox-prelude.ts";
import type { SyncSqlite } from "./sql-driver.ts";
import { sqliteStore } from "./sql-store.ts";
import type { CodeModeInput, CodeModeOutput, PendingAction } from "./types.ts";
import { createValueCodec } from "./value-codec.ts";

/** Serialized text a recorded value may take, in characters (seed 000). */
export const MAX_RECORDED_LENGTH = 1_000_000;
/** Runs kept after a new one starts (terminal runs beyond it are pruned). */
export const DEFAULT_MAX_EXECUTIONS = 50;
/** `expirePaused` treats runs untouched this long as stale. */
export const DEFAULT_EXPIRY_MS = 24 * 60 * 60 * 1000;

export interface CodemodeRuntimeOptions {
  /** where the journal lives: `sqliteStore(db)`, `memoryStore()`, … */
  store?: JournalStore;
  /** inside a Durable Object: the journal lives in its own SQLite */
  ctx?: { storage: SyncSqlite };
  executor: Executor;
  connectors: readonly Connector[];
  /** separate histories per name (default "default") */
  name?: string;
  /** terminal runs kept when a new one starts (default 50) */
  maxExecutions?: number;
  /** shapes what the model gets from a completed run, after the original is recorded */
  transformResult?: (result: unknown) => unknown;
  /** per pass: time and memory limits for the executor, and a budget of connector calls and steps */
  limits?: ExecuteLimits & { maxCalls?: number };
  /** injectable clock */
  now?: () => number;
  /**
   * how `codemode.search` ranks: an optional `embed(texts)` for a semantic re-rank (Workers AI
   * embeddings, for example; search works offline without it), the `semanticWeight` of that re-rank,
   * and how many results a search returns (`limit`, default 8)
   */
  search?: Pick<CatalogOptions, "embed" | "semanticWeight" | "limit">;
}

/** A run with its journal, as the audit view shows it. */
export interface RuntimeExecution {
  id: string;
  status: ExecutionStatus;
  code: string;
  result?: unknown;
  error?: string;
  logs?: string[];
  connectors: string[];
  createdAt: number;
  updatedAt: number;
  calls: Array<{
    seq: number;
    kind: "call" | "step";
    connector: string;
    method: string;
    args?: unknown;
    result?: unknown;
    state: JournalEntry["state"];
    error?: string;
  }>;
}

/** What a rollback did. */
export interface RollbackReport {
  /** sequence numbers reverted, newest first */
  reverted: number[];
  /** applied calls that have no revert or whose connector is gone */
  skipped: number[];
  /**
   * Calls whose connector may have run but whose outcome was never recorded (the process died in
   * between), newest first; present only when there are some. Nothing reverts them: check them by
   * their idempotency key, `<executionId>:<seq>`.
   */
  unrecorded?: number[];
}

/**
 * The input schema of the `codemode` tool: a Standard Schema that offers its JSON Schema (what the AI
 * SDK, TanStack AI and MCP servers read), with `{ code: string }` as its type.
 */
export interface CodeInputSchema {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => { value: CodeModeInput } | { issues: ReadonlyArray<{ message: string }> };
    readonly types?: { readonly input: unknown; readonly output: CodeModeInput };
    readonly jsonSchema: {
      readonly input: (options: { target: string }) => Record<string, unknown>;
      readonly output: (options: { target: string }) => Record<string, unknown>;
    };
  };
}

/** The `codemode` tool as the AI SDK (and anything with JSON Schema tools) takes it. */
export interface CodemodeTool {
  description: string;
  inputSchema: CodeInputSchema;
  execute: (input: CodeModeInput) => Promise<CodeModeOutput>;
}

export interface CodemodeRuntime {
  /**
   * Resolves once every connector has listed its methods and the configuration is checked (it
   * rejects on a bad one). Connectors that list asynchronously (MCP) make `tool().description`
   * generic until then: await this before handing the tool to a model.
   */
  ready(): Promise<void>;
  tool(options?: { description?: string }): CodemodeTool;
  execute(input: { code: string }): Promise<CodeModeOutput>;
  approve(options: { executionId: string }): Promise<CodeModeOutput>;
  reject(options: { executionId: string; seq: number }): Promise<boolean>;
  resolve(options: { executionId: string; seq: number; result: unknown }): Promise<CodeModeOutput>;
  rollback(options: { executionId: string }): Promise<RollbackReport>;
  pending(executionId?: string): Promise<PendingAction[]>;
  executions(limit?: number): Promise<RuntimeExecution[]>;
  execution(id: string): Promise<RuntimeExecution | undefined>;
  deleteExecution(id: string): Promise<boolean>;
  pruneExecutions(keep?: number): Promise<number>;
  clearHistory(): Promise<number>;
  expirePaused(options?: { maxAgeMs?: number }): Promise<string[]>;
  saveSnippet(
    name: string,
    options: { executionId: string; description?: string; inputSchema?: unknown },
  ): Promise<void>;
  snippets(): Promise<
    Array<{
      name: string;
      description?: string;
      code: string;
      connectors: string[];
      savedAt: number;
    }>
  >;
  deleteSnippet(name: string): Promise<boolean>;
  search(query: string): Promise<SearchOutput>;
  describe(target: string): Promise<DescribeOutput>;
}

interface ResolvedConnector {
  connector: Connector;
  /** sandbox identifier */
  name: string;
  methods: Map<string, { original: string; definition: ConnectorMethod }>;
}

interface Configuration {
  connectors: Map<string, ResolvedConnector>;
  catalog: Catalog;
  description: string;
}

const codec = createValueCodec();
const PAUSE =
  "The run is paused: a call is waiting for approval. Nothing after it runs in this pass.";

function preview(text: string | undefined, length = 120): string {
  if (text === undefined) return "";
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/**
 * The value's codec text (`known`, when the executor already had it), or a model-actionable error
 * when it cannot be recorded whole.
 */
function recordable(value: unknown, what: string, known?: string): string {
  let text: string;
  try {
    text = known ?? codec.encode(value);
  } catch (error) {
    throw new CodemodeError(
      "NOT_SERIALIZABLE",
      `${what} could not be recorded (${(error as Error).message}). Return plain data: objects, arrays, strings, numbers, dates, maps, sets, bytes.`,
      { cause: error },
    );
  }
  if (text.length > MAX_RECORDED_LENGTH) {
    throw new CodemodeError(
      "TOO_LARGE",
      `${what} is too large to record (${text.length} characters, the limit is ${MAX_RECORDED_LENGTH}). Store large data elsewhere (a file, a blob store) and pass or return a small reference to it, such as its path or id.`,
      { details: { length: text.length } },
    );
  }
  return text;
}

/**
 * The leading calls of a journal that a pass will replay as they are: applied, recorded, without an
 * error, of connectors and methods still configured, from seq 0 on without a gap or a step.
 */
function replayHint(
  recorded: ReadonlyMap<number, JournalEntry>,
  config: Configuration,
  advance: (count: number) => void,
): ReplayHint | undefined {
  const replayable = (entry: JournalEntry | undefined): entry is JournalEntry & { args: string } =>
    entry?.kind === "call" &&
    entry.state === "applied" &&
    entry.replay === "record" &&
    entry.error === undefined &&
    entry.args !== undefined &&
    config.connectors.get(entry.connector)?.methods.has(entry.method) === true;
  if (!replayable(recorded.get(0))) return undefined;
  let calls: RecordedCall[] | undefined;
  // built on first read: an executor that ignores the hint does not pay for the canonical texts
  const build = () => {
    const list: RecordedCall[] = [];
    for (let entry = recorded.get(0); replayable(entry); entry = recorded.get(list.length)) {
      list.push({
        namespace: entry.connector,
        method: entry.method,
        input: codec.encode(codec.decode(entry.args), { canonical: true }),
        result: entry.result ?? codec.encode(undefined),
      });
    }
    return list;
  };
  return {
    get calls() {
      calls ??= build();
      return calls;
    },
    advance,
  };
}

/** Whether this call waits for a person: a method's flag, or its decision for this input. */
function approvalNeeded(
  definition: ConnectorMethod,
  input: unknown,
  executionId: string,
  seq: number,
): boolean | Promise<boolean> {
  const rule = definition.requiresApproval;
  // a flag answers at once: the common call does not wait for a promise here
  if (typeof rule !== "function") return rule === true;
  return (async () => {
    try {
      return (await rule(input, { executionId, seq })) !== false;
    } catch {
      return true;
    }
  })();
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The durable runtime: runs the model's code through an executor, numbers every connector call and
 * step, journals them, pauses for approvals, replays recorded results on later passes, rolls back,
 * keeps snippets, and turns every failure of the code into data.
 */
export function createCodemodeRuntime(options: CodemodeRuntimeOptions): CodemodeRuntime {
  if (!options || typeof options.executor?.execute !== "function") {
    throw new CodemodeError("INVALID_CONFIG", "createCodemodeRuntime needs an executor.");
  }
  if (!Array.isArray(options.connectors)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "createCodemodeRuntime needs connectors: an array (it may be empty).",
    );
  }
  const store = options.store ?? (options.ctx ? sqliteStore(options.ctx.storage) : undefined);
  if (!store) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "createCodemodeRuntime needs a store (sqliteStore(db), memoryStore()) or a Durable Object ctx.",
    );
  }
  const name = options.name ?? "default";
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `Runtime name "${name}" may only use letters, digits, "_", "." and "-".`,
    );
  }
  const journal: Journal = store.journal(name);
  const now = options.now ?? (() => Date.now());
  const maxExecutions = options.maxExecutions ?? DEFAULT_MAX_EXECUTIONS;
  const maxCalls = options.limits?.maxCalls ?? 10_000;
  let configuration: Promise<Configuration> | undefined;

  /** Connectors, their methods, the catalog and the tool description; throws on a bad configuration. */
  const build = (listed: ReadonlyArray<Record<string, ConnectorMethod>>): Configuration => {
    const definitions: ConnectorDefinition[] = options.connectors.map((connector, index) => {
      const methods = listed[index] as Record<string, ConnectorMethod>;
      for (const [method, definition] of Object.entries(methods)) {
        if (definition.requiresApproval && definition.replay === "reexecute") {
          throw new CodemodeError(
            "INVALID_CONFIG",
            `Method "${method}" of connector "${connector.name}" needs approval and replay "reexecute": replaying would apply the approved call again.`,
          );
        }
      }
      return {
        name: connector.name,
        ...(connector.instructions ? { instructions: connector.instructions } : {}),
        ...(connector.schemaRoot !== undefined ? { schemaRoot: connector.schemaRoot } : {}),
        methods: Object.entries(methods).map(([method, definition]) => ({
          name: method,
          ...(definition.description ? { description: definition.description } : {}),
          ...(definition.inputSchema !== undefined ? { inputSchema: definition.inputSchema } : {}),
          ...(definition.outputSchema !== undefined
            ? { outputSchema: definition.outputSchema }
            : {}),
          ...(definition.requiresApproval === true ? { requiresApproval: true } : {}),
          ...(definition.keywords ? { keywords: definition.keywords } : {}),
        })),
      };
    });
    let catalog: Catalog;
    try {
      catalog = createCatalog({ ...options.search, connectors: definitions });
    } catch (error) {
      if (TypegenError.isInstance(error))
        throw new CodemodeError("INVALID_CONFIG", error.message, { cause: error });
      throw error;
    }
    const connectors = new Map<string, ResolvedConnector>();
    catalog.connectors.forEach((declared, index) => {
      const connector = options.connectors[index] as Connector;
      const methods = listed[index] as Record<string, ConnectorMethod>;
      const resolved: ResolvedConnector = { connector, name: declared.name, methods: new Map() };
      for (const method of declared.methods) {
        resolved.methods.set(method.name, {
          original: method.original,
          definition: methods[method.original] as ConnectorMethod,
        });
      }
      connectors.set(declared.name, resolved);
    });
    return { connectors, catalog, description: createToolDescription(catalog.connectors) };
  };

  // Connectors whose methods are known at once are checked now, so that a bad configuration throws
  // here; connectors that list their methods asynchronously are checked on first use.
  const listed = options.connectors.map((connector) => connector.methods());
  const pending = listed.some(
    (methods) => typeof (methods as PromiseLike<unknown>)?.then === "function",
  );
  let ready: Configuration | undefined = pending
    ? undefined
    : build(listed as Record<string, ConnectorMethod>[]);

  const configure = async (): Promise<Configuration> => {
    if (ready) return ready;
    configuration ??= Promise.all(listed).then(build);
    try {
      ready = await configuration;
      return ready;
    } catch (error) {
      configuration = undefined;
      throw error;
    }
  };

  const snippetCatalog = async (config: Configuration) =>
    config.catalog.withSnippets(
      (await journal.listSnippets()).map((snippet) => ({
        name: snippet.name,
        ...(snippet.description ? { description: snippet.description } : {}),
        code: snippet.code,
        ...(snippet.inputSchema ? { inputSchema: JSON.parse(snippet.inputSchema) as unknown } : {}),
      })),
    );

  const hooks = async (
    executionId: string,
    pass: PassEndStatus | undefined,
    end: ExecutionEndStatus | undefined,
  ) => {
    for (const connector of options.connectors) {
      try {
        if (pass) await connector.onPassEnd?.(executionId, pass);
      } catch {
        // a failing cleanup never turns the outcome into an error
      }
      try {
        if (end) await connector.disposeExecution?.(executionId, end);
      } catch {
        // idem
      }
    }
  };

  const pendingOf = async (executionId: string): Promise<PendingAction[]> =>
    (await journal.listEntries(executionId, { states: ["pending"] }))
      .filter((entry) => entry.state === "pending")
      .map((entry) => ({
        executionId,
        seq: entry.seq,
        connector: entry.connector,
        method: entry.method,
        args: entry.args === undefined ? undefined : codec.decode(entry.args),
      }));

  /**
   * Ends a pass in failure: marks the run failed (only while it is still running), runs the
   * connectors' end-of-pass and end-of-run hooks, and returns the model's outcome.
   */
  const fail = async (
    executionId: string,
    message: string,
    logs?: string[],
  ): Promise<CodeModeOutput> => {
    await journal.updateExecution(executionId, ["running"], {
      status: "error",
      error: preview(message, MAX_RECORDED_LENGTH),
      ...(logs ? { logs } : {}),
      updatedAt: now(),
    });
    await hooks(executionId, "error", "error");
    return { status: "error", executionId, error: message, ...(logs?.length ? { logs } : {}) };
  };

  /** One pass of a run whose status is `running`. */
  const runPass = async (execution: ExecutionRecord): Promise<CodeModeOutput> => {
    const config = await configure();
    const executionId = execution.id;
    const missing = execution.connectors.filter((connector) => !config.connectors.has(connector));
    if (missing.length > 0) {
      return fail(
        executionId,
        `This run needs connectors that are not configured now: ${missing.join(", ")}. Configure them again to resume it.`,
      );
    }
    let code: string;
    try {
      code = normalizeCode(execution.code);
    } catch (error) {
      return fail(executionId, messageOf(error));
    }

    const controller = createAbortController();
    let cursor = 0;
    let stopped: string | undefined; // why the pass must not reach connectors any more
    const stop = (reason: string) => {
      stopped ??= reason;
      controller.abort(new CodemodeError("ABORTED", reason));
    };
    const guard = () => {
      if (stopped) throw new CodemodeError("ABORTED", stopped);
    };
    const nextSeq = () => {
      guard();
      if (cursor >= maxCalls) {
        throw new CodemodeError(
          "BUDGET_EXCEEDED",
          `This run made more than ${maxCalls} connector calls and steps. Do less per run, or ask for a larger budget.`,
        );
      }
      return cursor++;
    };
    // What earlier passes recorded, read once: this pass is the only one running (a pass starts only
    // through a conditional update to "running"), so later reads would return the same rows.
    const recordedEntries = new Map(
      (await journal.listEntries(executionId)).map((entry) => [entry.seq, entry]),
    );
    const diverge = async (
      seq: number,
      recorded: JournalEntry,
      connector: string,
      method: string,
      args?: string,
    ) => {
      const message =
        `Replay divergence at call #${seq}: the journal recorded ${recorded.connector}.${recorded.method}(${preview(recorded.args)}) ` +
        `but this pass called ${connector}.${method}(${preview(args)}). Make the code deterministic: wrap Date.now(), ` +
        "Math.random() and other changing values in codemode.step(), and call methods one after another, not in Promise.all.";
      await journal.updateExecution(executionId, ["running"], {
        status: "error",
        error: message,
        updatedAt: now(),
      });
      stop(message);
      throw new CodemodeError("DIVERGENCE", message, { details: { seq } });
    };
    const failRecording = async (seq: number, error: unknown) => {
      const message = messageOf(error);
      await journal.updateEntry(executionId, seq, ["executing"], {
        state: "error",
        error: message,
        updatedAt: now(),
      });
      await journal.updateExecution(executionId, ["running"], {
        status: "error",
        error: message,
        updatedAt: now(),
      });
      stop(message);
      throw error;
    };

    /**
     * Marks an entry applied with its value (none for `reexecute`); a value that cannot be recorded
     * fails the run. The text recorded goes to `reply`, so the executor sends it as it is.
     */
    const recordApplied = (
      seq: number,
      value: unknown,
      what: string,
      keep: boolean,
      reply?: { text?: string },
    ): Promise<unknown> => {
      let text: string | undefined;
      try {
        text = keep ? recordable(value, what) : undefined;
      } catch (error) {
        return failRecording(seq, error);
      }
      if (reply) reply.text = text;
      // the store's promise itself, not one more wrapped around it: one hop less per call
      return journal.applyEntry(executionId, seq, { result: text, updatedAt: now() });
    };

    /**
     * Calls the connector. Without a time limit, the call ends with the pass: it gets the pass's
     * signal, and its promise is returned as it is. With one, see `invokeWithin`.
     */
    const invoke = (
      resolved: ResolvedConnector,
      method: string,
      input: unknown,
      seq: number,
    ): Promise<unknown> => {
      const { original, definition } = resolved.methods.get(method) as {
        original: string;
        definition: ConnectorMethod;
      };
      if (definition.timeoutMs !== undefined) {
        return invokeWithin(definition.timeoutMs, resolved, original, method, input, seq);
      }
      return resolved.connector.invoke(original, input, {
        executionId,
        seq,
        idempotencyKey: `${executionId}:${seq}`,
        signal: controller.signal,
      });
    };

    /** A call with a time limit gets a signal of its own that also fires when its time is up. */
    const invokeWithin = async (
      timeoutMs: number,
      resolved: ResolvedConnector,
      original: string,
      method: string,
      input: unknown,
      seq: number,
    ) => {
      const call = createAbortController();
      const onAbort = () => call.abort(controller.signal.reason);
      controller.signal.addEventListener("abort", onAbort, { once: true });
      const context: CallContext = {
        executionId,
        seq,
        idempotencyKey: `${executionId}:${seq}`,
        signal: call.signal,
      };
      let cancel = () => {};
      try {
        return await Promise.race([
          resolved.connector.invoke(original, input, context),
          new Promise((_, reject) => {
            cancel = after(timeoutMs, () => {
              const error = new CodemodeError(
                "TIMEOUT",
                `${resolved.name}.${method} took longer than ${timeoutMs} ms and was abandoned.`,
              );
              call.abort(error);
              reject(error);
            });
          }),
        ]);
      } finally {
        cancel();
        controller.signal.removeEventListener("abort", onAbort);
      }
    };

    /** One connector call of the sandbox; the codec text of the value it returns goes to `reply`. */
    const callConnector = async (
      resolved: ResolvedConnector,
      method: string,
      input: unknown,
      reply: { text?: string },
    ): Promise<unknown> => {
      const seq = nextSeq();
      const { definition } = resolved.methods.get(method) as { definition: ConnectorMethod };
      let args: string;
      try {
        args = recordable(
          input,
          `The input of ${resolved.name}.${method}`,
          knownEncodings.takeInput(input),
        );
      } catch (error) {
        const message = messageOf(error);
        await journal.updateExecution(executionId, ["running"], {
          status: "error",
          error: message,
          updatedAt: now(),
        });
        stop(message);
        throw error;
      }
      guard();
      const recorded = recordedEntries.get(seq);
      if (recorded) {
        // the same text records the same value; other texts are compared with sorted keys
        const same =
          recorded.kind === "call" &&
          recorded.connector === resolved.name &&
          recorded.method === method &&
          recorded.args !== undefined &&
          (recorded.args === args ||
            codec.encode(codec.decode(recorded.args), { canonical: true }) ===
              codec.encode(input, { canonical: true }));
        if (!same) return diverge(seq, recorded, resolved.name, method, args);
        if (recorded.state === "applied" && recorded.replay === "record") {
          if (recorded.error !== undefined) throw new Error(recorded.error);
          if (recorded.result === undefined) return undefined;
          reply.text = recorded.result;
          return codec.decode(recorded.result);
        }
        if (recorded.state === "pending") {
          // approved since: it runs now, exactly once (a racing rejection wins only before this)
          const approved = await journal.updateEntry(executionId, seq, ["pending"], {
            state: "executing",
            updatedAt: now(),
          });
          if (!approved) {
            stop(PAUSE);
            throw new CodemodeError("ABORTED", PAUSE);
          }
        } else if (recorded.state === "error" || recorded.state === "reverted") {
          return diverge(seq, recorded, resolved.name, method, args);
        }
        // executing (a crash between deciding and recording) or a reexecute entry: run it again
      } else {
        const decision = approvalNeeded(definition, input, executionId, seq);
        const needsApproval = typeof decision === "boolean" ? decision : await decision;
        guard();
        const gated = needsApproval || definition.deferred === true;
        const time = now();
        await journal.putEntry({
          executionId,
          seq,
          kind: "call",
          connector: resolved.name,
          method,
          args,
          state: gated ? "pending" : "executing",
          requiresApproval: needsApproval,
          deferred: definition.deferred === true,
          replay: definition.replay ?? "record",
          createdAt: time,
          updatedAt: time,
        });
        if (gated) {
          await journal.updateExecution(executionId, ["running"], {
            status: "paused",
            updatedAt: now(),
          });
          stop(PAUSE);
          throw new CodemodeError("ABORTED", PAUSE);
        }
      }
      let result: unknown;
      try {
        result = await invoke(resolved, method, input, seq);
      } catch (error) {
        if (stopped) throw new CodemodeError("ABORTED", stopped);
        const message = messageOf(error);
        // the failure is recorded so a later pass replays the same error
        await journal.applyEntry(executionId, seq, { error: message, updatedAt: now() });
        throw error instanceof Error ? error : new Error(message);
      }
      await recordApplied(
        seq,
        result,
        `The result of ${resolved.name}.${method}`,
        definition.replay !== "reexecute",
        reply,
      );
      return result;
    };

    const globals: HostNamespaces = {};
    for (const resolved of config.connectors.values()) {
      const namespace: Record<string, (input: unknown) => Promise<unknown>> = {};
      for (const method of resolved.methods.keys()) {
        namespace[method] = (input) => {
          const reply: { text?: string } = {};
          const promise = callConnector(resolved, method, input, reply);
          knownEncodings.noteReply(promise, reply);
          return promise;
        };
      }
      globals[resolved.name] = namespace;
    }
    globals.codemode = {
      search: async (query) => (await snippetCatalog(config)).search(String(query ?? "")),
      describe: async (target) => (await snippetCatalog(config)).describe(String(target ?? "")),
      __step_decide: async (input) => {
        const { name: stepName } = input as { name: string };
        const seq = nextSeq();
        guard();
        const recorded = recordedEntries.get(seq);
        if (recorded) {
          if (recorded.kind !== "step" || recorded.method !== stepName)
            return diverge(seq, recorded, "codemode.step", stepName);
          if (recorded.state === "applied") {
            return {
              replay: true,
              value: recorded.result === undefined ? undefined : codec.decode(recorded.result),
            };
          }
          return { replay: false, seq };
        }
        const time = now();
        await journal.putEntry({
          executionId,
          seq,
          kind: "step",
          connector: "codemode.step",
          method: stepName,
          state: "executing",
          requiresApproval: false,
          deferred: false,
          replay: "record",
          createdAt: time,
          updatedAt: time,
        });
        return { replay: false, seq };
      },
      __step_record: async (input) => {
        const { seq, value } = input as { seq: number; value: unknown };
        guard();
        await recordApplied(seq, value, "The value of a codemode.step", true);
        return null;
      },
      __snippet: async (input) => {
        const snippetName = String((input as { name?: unknown })?.name ?? "");
        const snippet = await journal.getSnippet(snippetName);
        if (!snippet)
          return {
            error: `No snippet is named "${snippetName}". Use codemode.search() to find snippets.`,
          };
        const absent = snippet.connectors.filter((connector) => !config.connectors.has(connector));
        if (absent.length) {
          return {
            error: `Snippet "${snippetName}" needs connectors that are not configured: ${absent.join(", ")}.`,
          };
        }
        try {
          return { code: normalizeCode(snippet.code) };
        } catch (error) {
          return { error: `Snippet "${snippetName}" does not parse: ${messageOf(error)}` };
        }
      },
    };

    const replay = replayHint(recordedEntries, config, (count) => {
      // the sandbox answered the next `count` calls from the journal, as they were recorded
      cursor += count;
    });
    const outcome = await options.executor.execute({
      code,
      globals,
      prelude: SANDBOX_PRELUDE,
      signal: controller.signal,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(replay ? { replay } : {}),
    });
    stopped ??= "The pass has ended.";

    const final = await journal.getExecution(executionId);
    if (final?.status === "paused") {
      await hooks(executionId, "paused", undefined);
      return { status: "paused", executionId, pending: await pendingOf(executionId) };
    }
    if (final?.status === "error") {
      await hooks(executionId, "error", "error");
      return {
        status: "error",
        executionId,
        error: final.error ?? "The run failed.",
        ...(outcome.logs.length ? { logs: outcome.logs } : {}),
      };
    }
    if ("error" in outcome) {
      let message = `${outcome.error.name}: ${outcome.error.message}`.replace(/([^.!?])$/, "$1.");
      if (/is not defined/.test(outcome.error.message)) {
        message += ` The globals in the sandbox are: ${[...config.connectors.keys(), "codemode"].join(", ")}.`;
      }
      const unknown = /namespace "([\w$]+)" has no method "([^"]+)"/.exec(outcome.error.message);
      if (unknown) {
        // an executor may list every method; a namespace of a thousand needs the nearest few instead
        const [, namespace, method] = unknown as unknown as [string, string, string];
        const nearest = (await config.catalog.search(method, { limit: 50 })).results
          .filter((result) => result.connector === namespace)
          .slice(0, 5)
          .map((result) => result.path);
        message =
          `TypeError: ${namespace}.${method} is not a method.` +
          (nearest.length ? ` Nearest: ${nearest.join(", ")}.` : "") +
          ` Use codemode.search("what you want to do") and codemode.describe(path) to find the right one.`;
      }
      return fail(executionId, message, outcome.logs);
    }
    let resultText: string;
    try {
      resultText = recordable(outcome.result, "The result");
    } catch (error) {
      if (CodemodeError.isInstance(error) && error.code === "NOT_SERIALIZABLE") {
        return fail(executionId, error.message, outcome.logs);
      }
      // too big for the audit row: the model still gets it
      resultText = codec.encode(`[not recorded: ${messageOf(error)}]`);
    }
    await journal.updateExecution(executionId, ["running"], {
      status: "completed",
      result: resultText,
      logs: outcome.logs,
      updatedAt: now(),
    });
    await hooks(executionId, "completed", "completed");
    let result = outcome.result;
    if (options.transformResult) {
      try {
        result = options.transformResult(result);
      } catch {
        // the original result is recorded; the model gets it untransformed
      }
    }
    return {
      status: "completed",
      executionId,
      result,
      ...(outcome.logs.length ? { logs: outcome.logs } : {}),
    };
  };

  const execute = async (input: { code: string }): Promise<CodeModeOutput> => {
    const config = await configure();
    const code = typeof input?.code === "string" ? input.code : "";
    if (code.length > MAX_RECORDED_LENGTH) {
      return {
        status: "error",
        executionId: "",
        error: `The code is too large to record (${code.length} characters, the limit is ${MAX_RECORDED_LENGTH}). Move data out of the code and pass a reference.`,
      };
    }
    const time = now();
    const id = `exec_${String(time).padStart(16, "0")}_${randomHex()}`;
    await journal.createExecution({
      id,
      code,
      status: "running",
      connectors: [...config.connectors.keys()],
      createdAt: time,
      updatedAt: time,
    });
    await journal.pruneExecutions(maxExecutions, id);
    return runPass((await journal.getExecution(id)) as ExecutionRecord);
  };

  const notPaused = (executionId: string, status: string | undefined): CodeModeOutput => ({
    status: "error",
    executionId,
    error:
      status === undefined
        ? `No execution has the id "${executionId}".`
        : `Execution "${executionId}" is ${status}; only a paused run can resume.`,
  });

  /**
   * Takes a paused run (a conditional update to `running`: one caller wins) and runs its next pass;
   * `claimed` runs in between, while no other caller can change the run, and may refuse the pass.
   */
  const resume = async (
    executionId: string,
    claimed?: () => Promise<CodeModeOutput | undefined>,
  ): Promise<CodeModeOutput> => {
    const execution = await journal.getExecution(executionId);
    if (execution?.status !== "paused") return notPaused(executionId, execution?.status);
    if (
      !(await journal.updateExecution(executionId, ["paused"], {
        status: "running",
        updatedAt: now(),
      }))
    ) {
      return notPaused(executionId, (await journal.getExecution(executionId))?.status);
    }
    const refused = await claimed?.();
    if (refused) return refused;
    return runPass({ ...execution, status: "running" });
  };

  const decodeExecution = async (record: ExecutionRecord): Promise<RuntimeExecution> => ({
    id: record.id,
    status: record.status,
    code: record.code,
    ...(record.result !== undefined ? { result: codec.decode(record.result) } : {}),
    ...(record.error !== undefined ? { error: record.error } : {}),
    ...(record.logs ? { logs: record.logs } : {}),
    connectors: record.connectors,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    calls: (await journal.listEntries(record.id)).map((entry) => ({
      seq: entry.seq,
      kind: entry.kind,
      connector: entry.connector,
      method: entry.method,
      ...(entry.args !== undefined ? { args: codec.decode(entry.args) } : {}),
      ...(entry.result !== undefined ? { result: codec.decode(entry.result) } : {}),
      state: entry.state,
      ...(entry.error !== undefined ? { error: entry.error } : {}),
    })),
  });

  const runtime: CodemodeRuntime = {
    tool(toolOptions = {}) {
      const schema = {
        type: "object",
        properties: {
          code: { type: "string", description: "One async JavaScript arrow function to run." },
        },
        required: ["code"],
        additionalProperties: false,
      };
      const validate = (value: unknown) =>
        typeof value === "object" &&
        value !== null &&
        typeof (value as { code?: unknown }).code === "string"
          ? { value: { code: (value as CodeModeInput).code } }
          : { issues: [{ message: "The codemode tool takes { code: string }." }] };
      const inputSchema: CodeInputSchema = {
        "~standard": {
          version: 1,
          vendor: "codemode",
          validate,
          jsonSchema: { input: () => schema, output: () => schema },
        },
      };
      // the AI SDK also recognizes its own schema marker and then uses the JSON Schema as it is
      Object.assign(inputSchema, {
        [Symbol.for("vercel.ai.schema")]: true,
        jsonSchema: schema,
        validate: (value: unknown) => {
          const outcome = validate(value);
          return "value" in outcome
            ? { success: true, value: outcome.value }
            : { success: false, error: new Error(outcome.issues[0]?.message) };
        },
      });
      return {
        get description() {
          return (
            toolOptions.description ??
            ready?.description ??
            "Run JavaScript that composes the configured connectors."
          );
        },
        inputSchema,
        execute: (input) => execute(input),
      };
    },
    execute,
    async ready() {
      await configure();
    },
    async approve({ executionId }) {
      const deferred = (await journal.listEntries(executionId, { states: ["pending"] })).find(
        (entry) => entry.state === "pending" && entry.deferred,
      );
      if (deferred) {
        return {
          status: "error",
          executionId,
          error: `Call #${deferred.seq} (${deferred.connector}.${deferred.method}) waits for a result, not an approval: use runtime.resolve.`,
        };
      }
      return resume(executionId);
    },
    async reject({ executionId, seq }) {
      const entry = await journal.getEntry(executionId, seq);
      if (entry?.state !== "pending") return false;
      if (
        !(await journal.updateExecution(executionId, ["paused"], {
          status: "rejected",
          updatedAt: now(),
        }))
      )
        return false;
      await journal.updateEntry(executionId, seq, ["pending"], {
        state: "reverted",
        updatedAt: now(),
      });
      await hooks(executionId, undefined, "rejected");
      return true;
    },
    async resolve({ executionId, seq, result }) {
      const notWaiting = `Call #${seq} of execution "${executionId}" is not waiting for a result.`;
      const entry = await journal.getEntry(executionId, seq);
      if (entry?.state !== "pending" || !entry.deferred) {
        return {
          status: "error",
          executionId,
          error: notWaiting,
        };
      }
      let text: string;
      try {
        text = recordable(result, `The result of ${entry.connector}.${entry.method}`);
      } catch (error) {
        return { status: "error", executionId, error: messageOf(error) };
      }
      // the run is taken first, so a racing rejection either wins before it or finds it running:
      // a refused result is never recorded in a rejected run
      return resume(executionId, async () => {
        if (
          await journal.updateEntry(executionId, seq, ["pending"], {
            state: "applied",
            result: text,
            updatedAt: now(),
          })
        ) {
          return undefined;
        }
        await journal.updateExecution(executionId, ["running"], {
          status: "paused",
          updatedAt: now(),
        });
        return { status: "error", executionId, error: notWaiting };
      });
    },
    async rollback({ executionId }) {
      const execution = await journal.getExecution(executionId);
      if (!execution)
        throw new CodemodeError("NOT_PAUSED", `No execution has the id "${executionId}".`);
      if (execution.status === "running") {
        throw new CodemodeError(
          "NOT_PAUSED",
          `Execution "${executionId}" is running; roll it back once its pass has ended.`,
        );
      }
      const config = await configure();
      // A paused run is taken first, so that an approval or a result racing this rollback either
      // resumes it before (then this one looks again and finds it running) or finds it rolled back.
      const claimed = execution.status === "paused";
      if (
        claimed &&
        !(await journal.updateExecution(executionId, ["paused"], {
          status: "rolled_back",
          updatedAt: now(),
        }))
      ) {
        return runtime.rollback({ executionId });
      }
      const report: RollbackReport = { reverted: [], skipped: [] };
      const failures: string[] = [];
      const entries = (
        await journal.listEntries(executionId, { states: ["applied", "executing"] })
      ).filter((entry) => entry.kind === "call");
      for (const entry of entries.reverse()) {
        if (entry.state === "executing") {
          report.unrecorded ??= [];
          report.unrecorded.push(entry.seq);
          continue;
        }
        const resolved = config.connectors.get(entry.connector);
        const method = resolved?.methods.get(entry.method);
        if (
          !resolved ||
          !method?.definition.revertible ||
          !resolved.connector.revert ||
          entry.error !== undefined
        ) {
          report.skipped.push(entry.seq);
          continue;
        }
        const controller = createAbortController();
        try {
          await resolved.connector.revert(
            method.original,
            entry.args === undefined ? undefined : codec.decode(entry.args),
            entry.result === undefined ? undefined : codec.decode(entry.result),
            {
              executionId,
              seq: entry.seq,
              idempotencyKey: `${executionId}:${entry.seq}:revert`,
              signal: controller.signal,
            },
          );
          await journal.updateEntry(executionId, entry.seq, ["applied"], {
            state: "reverted",
            updatedAt: now(),
          });
          report.reverted.push(entry.seq);
        } catch (error) {
          failures.push(`#${entry.seq} ${entry.connector}.${entry.method}: ${messageOf(error)}`);
        }
      }
      if (report.reverted.length > 0) {
        await journal.updateExecution(executionId, ["completed", "error", "rejected", "paused"], {
          status: "rolled_back",
          updatedAt: now(),
        });
        await hooks(executionId, undefined, "rolled_back");
      } else if (claimed) {
        // nothing was reverted: the run is paused again, as it was
        await journal.updateExecution(executionId, ["rolled_back"], {
          status: "paused",
          updatedAt: execution.updatedAt,
        });
      }
      if (failures.length > 0) {
        throw new CodemodeError(
          "CONNECTOR_FAILED",
          `Rollback could not revert ${failures.length} call(s): ${failures.join("; ")}`,
          {
            details: { ...report, failures },
          },
        );
      }
      return report;
    },
    async pending(executionId) {
      if (executionId !== undefined) return pendingOf(executionId);
      const paused = await journal.listExecutions({ statuses: ["paused"] });
      return (await Promise.all(paused.map((record) => pendingOf(record.id)))).flat();
    },
    async executions(limit = 20) {
      return Promise.all((await journal.listExecutions({ limit })).map(decodeExecution));
    },
    async execution(id) {
      const record = await journal.getExecution(id);
      return record && decodeExecution(record);
    },
    async deleteExecution(id) {
      const record = await journal.getExecution(id);
      if (!record) return false;
      const removed = await journal.deleteExecution(id);
      if (record.status === "running" || record.status === "paused") {
        await hooks(id, undefined, record.status === "paused" ? "rejected" : "error");
      }
      return removed;
    },
    async pruneExecutions(keep = maxExecutions) {
      return (await journal.pruneExecutions(keep)).length;
    },
    async clearHistory() {
      return (await journal.pruneExecutions(0)).length;
    },
    async expirePaused(expiry = {}) {
      const before = now() - (expiry.maxAgeMs ?? DEFAULT_EXPIRY_MS);
      const expired: string[] = [];
      for (const record of await journal.listStale(["paused", "running"], before)) {
        const paused = record.status === "paused";
        const changed = await journal.updateExecution(record.id, [record.status], {
          status: paused ? "rejected" : "error",
          error: paused
            ? "Expired while waiting for approval."
            : "Expired while running: the host never finished the pass.",
          updatedAt: now(),
        });
        if (!changed) continue;
        for (const entry of await journal.listEntries(record.id, { states: ["pending"] })) {
          if (entry.state === "pending")
            await journal.updateEntry(record.id, entry.seq, ["pending"], {
              state: "reverted",
              updatedAt: now(),
            });
        }
        await hooks(record.id, undefined, paused ? "rejected" : "error");
        expired.push(record.id);
      }
      return expired;
    },
    async saveSnippet(snippetName, snippet) {
      if (typeof snippetName !== "string" || !/^[A-Za-z0-9_.-]+$/.test(snippetName)) {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `Snippet name "${snippetName}" may only use letters, digits, "_", "." and "-".`,
        );
      }
      const execution = await journal.getExecution(snippet.executionId);
      if (!execution)
        throw new CodemodeError(
          "INVALID_CONFIG",
          `No execution has the id "${snippet.executionId}".`,
        );
      await journal.putSnippet({
        name: snippetName,
        ...(snippet.description ? { description: snippet.description } : {}),
        code: execution.code,
        ...(snippet.inputSchema !== undefined
          ? { inputSchema: JSON.stringify(snippet.inputSchema) }
          : {}),
        connectors: execution.connectors,
        savedAt: now(),
      });
    },
    async snippets() {
      return (await journal.listSnippets()).map(({ inputSchema: _schema, ...snippet }) => snippet);
    },
    deleteSnippet: (snippetName) => journal.deleteSnippet(snippetName),
    async search(query) {
      return (await snippetCatalog(await configure())).search(query);
    },
    async describe(target) {
      return (await snippetCatalog(await configure())).describe(target);
    },
  };

  // an asynchronous configuration is prepared now, so the tool description is ready when it is read
  if (!ready) configure().catch(() => {});
  return runtime;
}
