import {
  type CallContext,
  CodemodeError,
  type Connector,
  type ConnectorMethod,
  type ReplayPolicy,
} from "@codemode/core";
import { createNameMap, type JsonSchema, TypegenError } from "@codemode/typegen";
import {
  Client,
  type ClientOptions,
  type Implementation,
  ProtocolError,
  type RequestOptions,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  type StreamableHTTPClientTransportOptions,
  type Tool,
  type Transport,
} from "@modelcontextprotocol/client";
import { approvalFromAnnotations } from "./approval-from-annotations.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, limitedFetch } from "./limited-fetch.ts";
import { type HeaderParam, headerSchema, readHeaderParams } from "./param-headers.ts";
import { ownToolCache, toolCache } from "./tool-cache.ts";
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
  /**
   * a connected `Client` of `@modelcontextprotocol/client` (SDK v2), on either protocol era; the
   * connector never closes it. A v1 `Client` (`@modelcontextprotocol/sdk`) is refused: pass its
   * transport instead.
   */
  client?: Client;
  /**
   * a transport (in-memory, Streamable HTTP, stdio, …) the connector connects its own client over;
   * any object of the MCP `Transport` shape, v1 transports included
   */
  transport?: Transport;
  /** a Streamable HTTP endpoint the connector connects its own client to */
  url?: string | { readonly href: string };
  /** options of the Streamable HTTP transport made for `url` (headers, auth provider, fetch) */
  http?: StreamableHTTPClientTransportOptions;
  /**
   * the most bytes of one message the server sends over `url` (a JSON response whole, an event of
   * an event stream); past it the response is cut off and the request fails. Default 32 MiB (the
   * SDK's stdio transport stops a line at 10 MiB); a `transport` or `client` you pass is yours to
   * bound.
   */
  maxMessageBytes?: number;
  /** how the connector's own client introduces itself (default `{ name: "codemode" }`) */
  clientInfo?: Implementation;
  /**
   * options of the connector's own client, over the connector's defaults: `versionNegotiation`
   * `{ mode: "auto" }` (2026-07-28 through `server/discover`, else the 2025 `initialize`), no
   * capabilities (no elicitation, sampling or roots: see the README), and a `listChanged.tools`
   * that keeps the tool listing current (one given here is called after it)
   */
  clientOptions?: ClientOptions;
  /**
   * a line or two on what the connector is for (default: the server's `instructions`, from
   * `initialize` or `server/discover`)
   */
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
  /**
   * the connected client (connecting the connector's own client on first use); its
   * `getProtocolEra()` says which protocol it speaks: "modern" (2026-07-28) or "legacy" (2025)
   */
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
  if (options.client !== undefined && !isV2Client(options.client)) {
    throw invalidConfig(
      `mcpConnector "${options.name}" was given a Client of @modelcontextprotocol/sdk (SDK v1): it needs one of @modelcontextprotocol/client (SDK v2). Connect a Client of @modelcontextprotocol/client instead, or pass an unconnected transport (v1 transports work: the connector connects its own client over it).`,
    );
  }
  const checkTimeout = (timeoutMs: unknown, where: string) => {
    if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0)) {
      throw invalidConfig(`${where} has timeoutMs ${String(timeoutMs)}: use a positive number.`);
    }
  };
  checkTimeout(options.timeoutMs, `mcpConnector "${options.name}"`);
  const { maxMessageBytes } = options;
  if (
    maxMessageBytes !== undefined &&
    !(Number.isSafeInteger(maxMessageBytes) && maxMessageBytes > 0)
  ) {
    throw invalidConfig(
      `mcpConnector "${options.name}" has maxMessageBytes ${String(maxMessageBytes)}: use a positive whole number of bytes.`,
    );
  }
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

/** Whether a `client` is of SDK v2: v1's `Client` has no protocol era (and another `request`). */
function isV2Client(client: unknown): client is Client {
  return (
    typeof client === "object" &&
    client !== null &&
    typeof (client as Partial<Client>).getProtocolEra === "function" &&
    typeof (client as Partial<Client>).listen === "function"
  );
}

/** The options of the connector's own client: the connector's defaults, then the host's. */
function ownClientOptions(
  given: ClientOptions | undefined,
  onToolsChanged: () => void,
): ClientOptions {
  const tools = given?.listChanged?.tools;
  return {
    capabilities: {},
    versionNegotiation: { mode: "auto" },
    ...given,
    listChanged: {
      ...given?.listChanged,
      tools: {
        autoRefresh: false,
        debounceMs: 0,
        ...tools,
        onChanged: (error, changed) => {
          onToolsChanged();
          tools?.onChanged(error, changed);
        },
      },
    },
  };
}

/** The marks of a tool that become `Mcp-Param-*` headers, read once per listed tool. */
const headerParamsOf = new WeakMap<Tool, ReturnType<typeof readHeaderParams>>();
function headerParams(tool: Tool) {
  let params = headerParamsOf.get(tool);
  if (!params) {
    params = readHeaderParams(tool.inputSchema);
    headerParamsOf.set(tool, params);
  }
  return params;
}

/**
 * Whether an error says the server asked the client for input (a person's answer through
 * elicitation, a model's through sampling, the roots) during the call: the SDK found no handler for
 * an `input_required` request, or the server refused to ask a client that declared no capability
 * for it (`-32021`).
 */
function askedForInput(error: unknown): boolean {
  if (SdkError.isInstance(error)) {
    return (
      error.code === SdkErrorCode.CapabilityNotSupported && /input request/i.test(error.message)
    );
  }
  return ProtocolError.isInstance(error) && error.code === MISSING_CLIENT_CAPABILITY;
}

/** Why the connector's client answers no elicitation or sampling. */
const NO_ONE_ANSWERS =
  "mcpConnector answers no %s request: no person or model is there to answer inside a Code Mode tool call.";

/**
 * The connector's own client declares no elicitation or sampling by default, so servers do not ask
 * it. A host that declares either in `clientOptions.capabilities` gets handlers that refuse with
 * that reason (on 2025-11-25 the server sees an error; on 2026-07-28 the SDK fails the call at
 * once), instead of the SDK's bare "Method not found".
 */
function declineInput(client: Client, capabilities: ClientOptions["capabilities"]): void {
  if (capabilities?.elicitation) {
    client.setRequestHandler("elicitation/create", () => {
      throw new Error(NO_ONE_ANSWERS.replace("%s", "elicitation"));
    });
  }
  if (capabilities?.sampling) {
    client.setRequestHandler("sampling/createMessage", () => {
      throw new Error(NO_ONE_ANSWERS.replace("%s", "sampling"));
    });
  }
}

/** `-32021` MissingRequiredClientCapability (MCP 2026-07-28). */
const MISSING_CLIENT_CAPABILITY = -32021;

/**
 * An MCP server's tools as a Code Mode namespace, over MCP 2026-07-28 and 2025-11-25 alike. Tools
 * are listed page by page and listed again after `notifications/tools/list_changed`; their names
 * become identifiers (two tools that become the same one are a configuration error), their input
 * and output schemas type the declarations (they are never run: no server `pattern` reaches a regex
 * engine on the host), and every tool needs approval unless the host trusts the server's
 * annotations (`trustAnnotations`) or decides itself. Results are unwrapped (`structuredContent`,
 * JSON text, plain text) and `isError` becomes an error the model's code can catch. A server that
 * asks for input during a call (elicitation, sampling) is declined: no one answers inside a call.
 */
export function mcpConnector(options: McpConnectorOptions): McpConnector {
  checkOptions(options);
  const name = options.name;
  const settings = options.tools ?? {};
  const given = options.client;
  let own: Client | undefined;
  let connecting: Promise<Client> | undefined;
  let closed = false;

  /** The Streamable HTTP transport for `url`. */
  const httpTransport = (): Transport => {
    const href = typeof options.url === "string" ? options.url : String(options.url?.href);
    const endpoint = new URL(href) as ConstructorParameters<
      typeof StreamableHTTPClientTransport
    >[0];
    const limited = limitedFetch(
      options.http?.fetch,
      options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    );
    return new StreamableHTTPClientTransport(endpoint, { ...options.http, fetch: limited });
  };

  const connectOwn = async (): Promise<Client> => {
    const transport = options.transport ?? httpTransport();
    const made: Client = new Client(
      options.clientInfo ?? CLIENT_INFO,
      ownClientOptions(options.clientOptions, () => cache.invalidate()),
    );
    // the listing's cache exists before the first notification can reach it
    const cache = ownToolCache(made);
    declineInput(made, options.clientOptions?.capabilities);
    own = made;
    try {
      await made.connect(transport);
    } catch (error) {
      throw new CodemodeError(
        "CONNECTOR_FAILED",
        `mcpConnector "${name}" could not connect to its MCP server: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    return made;
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

  let last: { tools: Tool[]; modern: boolean; resolved: Resolved } | undefined;
  const settingsOf = (tool: Tool): McpToolOptions =>
    (Object.hasOwn(settings, tool.name) ? settings[tool.name] : undefined) ?? {};
  const timeoutOf = (tool: Tool) => settingsOf(tool).timeoutMs ?? options.timeoutMs;

  const resolve = (tools: Tool[], modern: boolean): Resolved => {
    if (last?.tools === tools && last.modern === modern) return last.resolved;
    const chosen = tools.filter(
      (tool) =>
        // a tool that must run as an MCP task (2025-11-25) cannot be called with tools/call
        (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport !== "required" &&
        // on 2026-07-28, a tool whose x-mcp-header marks break SEP-2243 is never offered
        (!modern || headerParams(tool).valid) &&
        (options.filter?.(tool) ?? true),
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
    last = { tools, modern, resolved };
    return resolved;
  };

  const current = async (): Promise<Resolved> => {
    const connected = await client();
    const modern = connected.getProtocolEra() === "modern";
    if (connected.getServerCapabilities()?.tools === undefined) return resolve([], modern);
    return resolve(await toolCache(connected).tools(), modern);
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
    const requestOptions: RequestOptions = {
      signal: context.signal as RequestOptions["signal"],
      ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
    };
    const params = {
      name: tool.name,
      arguments: (input ?? {}) as Record<string, unknown>,
      _meta: { [IDEMPOTENCY_KEY_META]: context.idempotencyKey },
    };
    const connected = await client();
    const marks = connected.getProtocolEra() === "modern" ? headerParams(tool) : undefined;
    const headers: readonly HeaderParam[] = marks?.valid ? marks.params : [];
    let answer: ToolCallAnswer;
    try {
      // A plain request, not `callTool`: that checks `structuredContent` against the server's
      // `outputSchema` with the client's JSON Schema validator, which runs the server's `pattern`
      // regexes (a backtracking one held the event loop for about an hour on a 40-character
      // result) and costs time exponential in the schema (alternatives over recursive references).
      // A server's schema is its own claim about its own data: checking it protects nothing.
      // A tool with `x-mcp-header` marks goes through `callTool` (it sends them as `Mcp-Param-*`
      // headers over Streamable HTTP) with a definition of those marks alone and no outputSchema.
      answer = (
        headers.length === 0
          ? await connected.request({ method: "tools/call", params }, requestOptions)
          : await connected.callTool(params, {
              ...requestOptions,
              toolDefinition: { name: tool.name, inputSchema: headerSchema(headers) } as Tool,
            })
      ) as ToolCallAnswer;
    } catch (error) {
      // the SDK wraps an abort's reason in an SdkError: the runtime knows the abort it caused only
      // by its reason itself
      if (context.signal.aborted) throw context.signal.reason ?? error;
      const message = error instanceof Error ? error.message : String(error);
      if (askedForInput(error)) {
        throw new CodemodeError(
          "CONNECTOR_FAILED",
          `${where} failed: the MCP server asked for input during the call (elicitation, sampling or roots), and mcpConnector answers none: no person or model is there to answer inside a Code Mode tool call. (${message})`,
          { cause: error, details: { tool: where, declined: "input_required" } },
        );
      }
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
      if (options.instructions !== undefined) return options.instructions;
      return (given ?? own)?.getInstructions();
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
