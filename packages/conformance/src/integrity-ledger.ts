// The journal-integrity suite's ground truth: one connector, `svc`, whose every invocation and revert
// is written to a ledger with what it received and how it ended, beside the host's own actions
// (decisions, reports, expiries), all on one logical clock, so the invariants can compare what
// really happened with what the journal and the runtime say.
import { type AbortSignalLike, type Connector, createValueCodec } from "@codemode/core";

declare function setTimeout(callback: () => void, ms: number): unknown;

const codec = createValueCodec();

/** The codec's canonical text, or a marker when the value cannot be encoded. */
export function canonical(value: unknown): string {
  try {
    return codec.encode(value, { canonical: true });
  } catch (error) {
    return `<unencodable: ${error instanceof Error ? error.name : typeof error}>`;
  }
}

/** One call that reached the connector. */
export interface Invocation {
  executionId: string;
  seq: number;
  idempotencyKey: string;
  method: string;
  /** canonical codec text of the input as received */
  input: string;
  gated: boolean;
  /** the operation its method named on the connector that invoked it */
  operation: string;
  /** logical time it started and settled */
  startedAt: number;
  settledAt?: number;
  outcome?: { returned: unknown } | { threw: unknown };
  /** the signal it was given: which pass it belongs to */
  signal: AbortSignalLike;
}

export interface Revert {
  executionId: string;
  seq: number;
  method: string;
  at: number;
}

/** Something the host did or was told, for the timeline. */
export interface HostEvent {
  at: number;
  kind:
    | "execute"
    | "approve"
    | "reject"
    | "rollback"
    | "expire"
    | "cancel"
    | "reported"
    | "rejected"
    | "expired"
    | "cancelled"
    | "rolledBack";
  executionId?: string;
  detail?: unknown;
}

/** The methods of `svc`, and whether each waits for approval. */
export const GATED_METHODS = new Set(["write", "writeFail"]);

/** The thrown values the connector can produce, by name (`fail` and `writeFail` take `{ shape }`). */
export type ThrownShape = "subclass" | "string" | "null" | "nullProto" | "proxy" | "getter";
/** The results that cannot be recorded (`unrec` takes `{ kind }`). */
export type UnrecordableKind = "function" | "cycle" | "huge";

class QuotaError extends Error {
  override name = "QuotaError";
  code = "E_QUOTA";
  data = { limit: 3, used: 4 };
  retryAfter = 5;
}

/** A new thrown value of `shape` (each call builds its own). */
export function thrown(shape: ThrownShape): unknown {
  switch (shape) {
    case "subclass":
      return new QuotaError("quota exceeded for svc");
    case "string":
      return "a bare string was thrown";
    case "null":
      return null;
    case "nullProto":
      return Object.assign(Object.create(null), { message: "no prototype", code: "E_NULL_PROTO" });
    case "proxy":
      return new Proxy(new Error("behind a proxy"), {
        get(target, key, receiver) {
          if (key === "name") return "ProxiedError";
          return Reflect.get(target, key, receiver);
        },
      });
    case "getter": {
      const error = new Error("unused");
      Object.defineProperty(error, "message", {
        get() {
          throw new Error("the message getter throws");
        },
      });
      return error;
    }
  }
}

function unrecordable(kind: UnrecordableKind): unknown {
  switch (kind) {
    case "function":
      return { callback: () => "not data" };
    case "cycle": {
      const node: Record<string, unknown> = { name: "loop" };
      node.self = node;
      return node;
    }
    case "huge":
      return { blob: "x".repeat(1_000_001) };
  }
}

/** What `read`, `slow` and the writes return: a function of the input only. */
export function answer(method: string, input: unknown): unknown {
  const key = (input as { key?: unknown } | null)?.key;
  return { method, key: key ?? null, echo: canonical(input).slice(0, 80) };
}

export class Ledger {
  private clock = 0;
  /** the version of the service the connectors made from now on send to (`move`) */
  private version = 1;
  readonly invocations: Invocation[] = [];
  readonly reverts: Revert[] = [];
  readonly events: HostEvent[] = [];
  private readonly listeners = new Set<(invocation: Invocation) => void>();

  tick(): number {
    return ++this.clock;
  }

  now(): number {
    return this.clock;
  }

  note(event: Omit<HostEvent, "at">): HostEvent {
    const full = { ...event, at: this.tick() };
    this.events.push(full);
    return full;
  }

  /** Called at the start of every invocation (the executor wrapper aborts passes from here). */
  onInvoke(listener: (invocation: Invocation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  of(executionId: string): Invocation[] {
    return this.invocations.filter((invocation) => invocation.executionId === executionId);
  }

  unsettled(executionId: string): Invocation[] {
    return this.of(executionId).filter((invocation) => invocation.settledAt === undefined);
  }

  /** The connector, made anew for every runtime as an application does; it writes to this ledger. */
  /**
   * The service moves: connectors made from now on name other operations for every method, as a
   * document fetched again that maps the same names to other requests. Connectors made before keep
   * theirs.
   */
  move(): void {
    this.version += 1;
  }

  connector(): Connector {
    const object = { type: "object" as const };
    const version = this.version;
    const operation = (method: string) => `POST https://svc.example/v${version}/${method}`;
    return {
      specificationVersion: "v1",
      name: "svc",
      methods: () => ({
        read: { description: "Read a record.", inputSchema: object, operation: operation("read") },
        slow: {
          description: "Read a record slowly ({ ms }).",
          inputSchema: object,
          operation: operation("slow"),
        },
        fail: {
          description: "Fail with a thrown value ({ shape }).",
          inputSchema: object,
          operation: operation("fail"),
        },
        unrec: {
          description: "Return what cannot be recorded ({ kind }).",
          inputSchema: object,
          operation: operation("unrec"),
        },
        write: {
          description: "Write a record.",
          inputSchema: object,
          requiresApproval: true,
          revertible: true,
          operation: operation("write"),
        },
        writeFail: {
          description: "Write a record, and fail ({ shape }).",
          inputSchema: object,
          requiresApproval: true,
          revertible: true,
          operation: operation("writeFail"),
        },
      }),
      invoke: async (method, input, context) => {
        const invocation: Invocation = {
          executionId: context.executionId,
          seq: context.seq,
          idempotencyKey: context.idempotencyKey,
          method,
          input: canonical(input),
          gated: GATED_METHODS.has(method),
          operation: operation(method),
          startedAt: this.tick(),
          signal: context.signal,
        };
        this.invocations.push(invocation);
        for (const listener of this.listeners) listener(invocation);
        const options = (input ?? {}) as { ms?: unknown; shape?: unknown; kind?: unknown };
        try {
          if (method === "slow") {
            const ms = typeof options.ms === "number" ? Math.min(options.ms, 50) : 10;
            await new Promise<void>((resolve) => setTimeout(() => resolve(), ms));
          }
          if (method === "fail" || method === "writeFail") {
            throw thrown((options.shape as ThrownShape) ?? "subclass");
          }
          const value =
            method === "unrec" && typeof options.kind === "string"
              ? unrecordable(options.kind as UnrecordableKind)
              : answer(method, input);
          invocation.outcome = { returned: value };
          invocation.settledAt = this.tick();
          return value;
        } catch (error) {
          invocation.outcome = { threw: error };
          invocation.settledAt = this.tick();
          throw error;
        }
      },
      revert: async (method, _input, _result, context) => {
        this.reverts.push({
          executionId: context.executionId,
          seq: context.seq,
          method,
          at: this.tick(),
        });
      },
    };
  }
}
