import {
  type CallContext,
  CodemodeError,
  type Connector,
  type ConnectorMethod,
  type ReplayPolicy,
} from "@codemode/core";
import { createNameMap, type JsonSchema, TypegenError } from "@codemode/typegen";
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import type {
  StreamableHTTPClientTransport,
  StreamableHTTPClientTransportOptions,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  type Implementation,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { approvalFromAnnotations } from "./approval-from-annotations.ts";
import { toolCache } from "./tool-cache.ts";
import { type ToolCallAnswer, unwrapToolResult } from "./unwrap-tool-result.ts";

// typed by hand: the package compiles without DOM, Node or Workers types and runs in all three
declare const URL: new (url: string) => { readonly href: string };

/** The `_meta` key of a `tools/call` request that carries the call's idempotency key. */
export const IDEMPOTENCY_KEY_META = "codemode/idempotencyKey";

/** What the connector's own client calls itself when it connects. */
const CLIENT_INFO: Implementation = { name: "codemode", version: "1.0.0" };

/** Settings for one tool, keyed by its MCP name. */
export interface McpToolOptions {
  /** the method's name in the sandbox (default: the MCP name made an identifier) */
  name?: string;
  /** decides this tool's approval, whatever the annotations say (see `approvalFromAnnotations`) */
  requiresApproval?: boolean;
  /** "record" (default): later passes replay the result; "reexecute": they call the tool again */
  replay?: ReplayPolicy;
  /** the call fails with a catchable error after this long (also the SDK request timeout) */
  timeoutMs?: number;
  /** replaces the server's description */
  description?: string;
  /** extra words that name the tool for search */
  keywords?: readonly string[];
}

export interface McpConnectorOptions {
  /** the sandbox global */
  name: string;
  /** a connected MCP client; the connector never closes it */
  client?: Client;
  /** a transport (in-memory, Streamable HTTP, stdio, …) the connector connects its own client over */
  transport?: Transport;
  /** a Streamable HTTP endpoint the connector connects its own client to */
  url?: string | { readonly href: string };
  /** options of the Streamable HTTP transport made for `url` (headers, auth provider, fetch) */
  http?: StreamableHTTPClientTransportOptions;
  /** how the connector's own client introduces itself (default `{ name: "codemode" }`) */
  clientInfo?: Implementation;
  /** options of the connector's own client (default: JSON Schema validation without code generation) */
  clientOptions?: ClientOptions;
  /** a line or two on what the connector is for (default: the server's `instructions`) */
  instructions?: string;
  /**
   * the host trusts this server's tool annotations (default false): `readOnlyHint: true` and
   * `destructiveHint: false` then spare a tool approval. Without it every tool asks, unless
   * `defaultApproval` or its own `requiresApproval` says otherwise; `destructiveHint: true` always asks.
   */
  trustAnnotations?: boolean;
  /** approval for tools whose annotations decide nothing (all of them, untrusted) (default true) */
  defaultApproval?: boolean;
  /** the default `timeoutMs` of every tool (without one, the SDK's request timeout of 60 s applies) */
  timeoutMs?: number;
  /** per-tool settings, keyed by MCP tool name */
  tools?: Record<string, McpToolOptions>;
  /** which tools become methods (default: all; tools that must run as MCP tasks never do) */
  filter?: (tool: Tool) => boolean;
}

/** An MCP server's tools as a connector, with access to its client. */
export interface McpConnector extends Connector {
  /** the connected client (connecting the connector's own client on first use) */
  client(): Promise<Client>;
  /** closes the connector's own client; a client passed in stays open */
  close(): Promise<void>;
}

interface Resolved {
  methods: Record<string, ConnectorMethod>;
  tools: Map<string, Tool>;
}

const REPLAY_POLICIES: readonly unknown[] = ["record", "reexecute"];

function invalidConfig(message: string, cause?: unknown): CodemodeError {
  return new CodemodeError("INVALID_CONFIG", message, cause === undefined ? {} : { cause });
}

function checkOptions(options: McpConnectorOptions): void {
  if (typeof options?.name !== "string" || options.name.trim() === "") {
    throw invalidConfig("mcpConnector needs a name: the sandbox global it becomes.");
  }
  const sources = [options.client, options.transport, options.url].filter(
    (source) => source !== undefined,
  );
  if (sources.length !== 1) {
    throw invalidConfig(
      `mcpConnector "${options.name}" needs exactly one of client (a connected MCP client), transport or url.`,
    );
  }
  const checkTimeout = (timeoutMs: unknown, where: string) => {
    if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0)) {
      throw invalidConfig(`${where} has timeoutMs ${String(timeoutMs)}: use a positive number.`);
    }
  };
  checkTimeout(options.timeoutMs, `mcpConnector "${options.name}"`);
  for (const [tool, settings] of Object.entries(options.tools ?? {})) {
    const where = `Tool "${tool}" of connector "${options.name}"`;
    checkTimeout(settings.timeoutMs, where);
    if (settings.replay !== undefined && !REPLAY_POLICIES.includes(settings.replay)) {
      throw invalidConfig(
        `${where} has replay "${String(settings.replay)}": use "record" or "reexecute".`,
      );
    }
    if (settings.requiresApproval === true && settings.replay === "reexecute") {
      throw invalidConfig(
        `${where} needs approval and replay "reexecute": replaying would apply the approved call again. Use replay "record".`,
      );
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * An MCP server's tools as a Code Mode namespace. Tools are listed page by page and listed again
 * after `notifications/tools/list_changed`; their names become identifiers (two tools that become
 * the same one are a configuration error), their input and output schemas type the declarations
 * (they are never run: no server `pattern` reaches a regex engine on the host), and every tool needs
 * approval unless the host trusts the server's annotations (`trustAnnotations`) or decides itself. Results are unwrapped (`structuredContent`, JSON text,
 * plain text) and `isError` becomes an error the model's code can catch.
 */
export function mcpConnector(options: McpConnectorOptions): McpConnector {
  checkOptions(options);
  const name = options.name;
  const settings = options.tools ?? {};
  const given = options.client;
  let own: Client | undefined;
  let connecting: Promise<Client> | undefined;
  let closed = false;

  /** The Streamable HTTP transport for `url`, loaded only when a connector uses one. */
  const httpTransport = async (): Promise<Transport> => {
    const { StreamableHTTPClientTransport: Http } = await import(
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    );
    const href = typeof options.url === "string" ? options.url : String(options.url?.href);
    const endpoint = new URL(href) as ConstructorParameters<
      typeof StreamableHTTPClientTransport
    >[0];
    return new Http(endpoint, options.http);
  };

  const connectOwn = async (): Promise<Client> => {
    const transport = options.transport ?? (await httpTransport());
    own = new Client(options.clientInfo ?? CLIENT_INFO, {
      capabilities: {},
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      ...options.clientOptions,
    });
    try {
      await own.connect(transport);
    } catch (error) {
      throw new CodemodeError(
        "CONNECTOR_FAILED",
        `mcpConnector "${name}" could not connect to its MCP server: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    return own;
  };

  const client = (): Promise<Client> => {
    if (given) {
      if (given.getServerCapabilities() === undefined) {
        return Promise.reject(
          invalidConfig(
            `mcpConnector "${name}" was given a client that is not connected: await client.connect(transport) first, or pass the transport instead.`,
          ),
        );
      }
      return Promise.resolve(given);
    }
    if (closed) {
      return Promise.reject(
        invalidConfig(`mcpConnector "${name}" was closed; make a new connector to call its tools.`),
      );
    }
    connecting ??= connectOwn();
    return connecting;
  };

  let last: { tools: Tool[]; resolved: Resolved } | undefined;
  const settingsOf = (tool: Tool): McpToolOptions =>
    (Object.hasOwn(settings, tool.name) ? settings[tool.name] : undefined) ?? {};
  const timeoutOf = (tool: Tool) => settingsOf(tool).timeoutMs ?? options.timeoutMs;

  const resolve = (tools: Tool[]): Resolved => {
    if (last?.tools === tools) return last.resolved;
    // a tool that must run as an MCP task cannot be called with tools/call
    const chosen = tools.filter(
      (tool) => tool.execution?.taskSupport !== "required" && (options.filter?.(tool) ?? true),
    );
    const nameOf = (tool: Tool) => settingsOf(tool).name ?? tool.name;
    let identifiers: ReadonlyMap<string, string>;
    try {
      identifiers = createNameMap(chosen.map(nameOf), {
        kind: `tool of connector "${name}"`,
      }).identifiers;
    } catch (error) {
      if (TypegenError.isInstance(error)) {
        throw invalidConfig(
          `${error.message} Give one of them another name with tools: { "<MCP name>": { name } } or leave it out with filter.`,
          error,
        );
      }
      throw error;
    }
    const resolved: Resolved = { methods: {}, tools: new Map() };
    for (const tool of chosen) {
      const identifier = identifiers.get(nameOf(tool)) as string;
      const configured = settingsOf(tool);
      const requiresApproval =
        configured.requiresApproval ??
        approvalFromAnnotations(tool.annotations, {
          trusted: options.trustAnnotations === true,
          unannotated: options.defaultApproval ?? true,
        });
      const replay = configured.replay ?? "record";
      if (requiresApproval && replay === "reexecute") {
        throw invalidConfig(
          `Tool "${tool.name}" of connector "${name}" needs approval (from its annotations or defaultApproval) and replay "reexecute": replaying would apply the approved call again. Set requiresApproval: false or replay "record" for it.`,
        );
      }
      const description =
        configured.description ?? tool.description ?? tool.title ?? tool.annotations?.title;
      const keywords = [
        ...(identifier !== tool.name ? [tool.name] : []),
        ...(tool.title ? [tool.title] : []),
        ...(configured.keywords ?? []),
      ];
      resolved.methods[identifier] = {
        ...(description ? { description } : {}),
        inputSchema: tool.inputSchema as JsonSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema as JsonSchema } : {}),
        ...(requiresApproval ? { requiresApproval: true } : {}),
        replay,
        ...(timeoutOf(tool) !== undefined ? { timeoutMs: timeoutOf(tool) } : {}),
        ...(keywords.length > 0 ? { keywords } : {}),
        revertible: false,
      };
      resolved.tools.set(identifier, tool);
    }
    last = { tools, resolved };
    return resolved;
  };

  const current = async (): Promise<Resolved> => {
    const connected = await client();
    if (connected.getServerCapabilities()?.tools === undefined) return resolve([]);
    return resolve(await toolCache(connected).tools());
  };

  const call = async (method: string, input: unknown, context: CallContext) => {
    const { tools } = await current();
    const tool = tools.has(method) ? tools.get(method) : undefined;
    if (!tool) {
      throw new CodemodeError("UNKNOWN_METHOD", `Connector "${name}" has no method "${method}".`, {
        details: { available: [...tools.keys()] },
      });
    }
    const where = `${name}.${method}`;
    if (input !== undefined && !isRecord(input)) {
      throw new CodemodeError(
        "INVALID_INPUT",
        `Invalid input for ${where}: pass an object of arguments.`,
      );
    }
    const timeoutMs = timeoutOf(tool);
    const signal = context.signal as RequestOptions["signal"];
    const connected = await client();
    let answer: ToolCallAnswer;
    try {
      // A plain request, not `callTool`: that checks `structuredContent` against the server's
      // `outputSchema` with the client's JSON Schema validator, which runs the server's `pattern`
      // regexes (a backtracking one held the event loop for about an hour on a 40-character
      // result) and costs time exponential in the schema (alternatives over recursive references).
      // A server's schema is its own claim about its own data: checking it protects nothing.
      answer = (await connected.request(
        {
          method: "tools/call",
          params: {
            name: tool.name,
            arguments: input ?? {},
            _meta: { [IDEMPOTENCY_KEY_META]: context.idempotencyKey },
          },
        },
        CallToolResultSchema,
        { signal, ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}) },
      )) as ToolCallAnswer;
    } catch (error) {
      if (context.signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new CodemodeError("CONNECTOR_FAILED", `${where} failed: ${message}`, {
        cause: error,
      });
    }
    return unwrapToolResult(answer, where);
  };

  return {
    specificationVersion: "v1",
    name,
    get instructions() {
      return options.instructions ?? (given ?? own)?.getInstructions();
    },
    async methods() {
      return (await current()).methods;
    },
    invoke: call,
    client,
    async close() {
      if (given || closed) return;
      closed = true;
      const closing = connecting;
      if (!closing) return;
      try {
        await (await closing).close();
      } catch {
        // a client that never connected has nothing to close
      }
    },
  };
}
