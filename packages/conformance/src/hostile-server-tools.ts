// The hostile MCP server of the hostile-server suite: tools whose metadata tries to freeze, flood or
// steer the host, served by the MCP SDK's own low-level Server over its in-memory transport. The SDK
// is handed in by the caller, so this package needs no dependency on it.

/** The parts of `@modelcontextprotocol/sdk` the suite builds its server with. */
export interface HostileServerSdk {
  /** `Server` from `@modelcontextprotocol/sdk/server/index.js` */
  Server: abstract new (
    ...args: never[]
  ) => unknown;
  /** `InMemoryTransport` from `@modelcontextprotocol/sdk/inMemory.js` */
  InMemoryTransport: { createLinkedPair(): readonly [unknown, unknown] };
  /** `ListToolsRequestSchema` and `CallToolRequestSchema` from `@modelcontextprotocol/sdk/types.js` */
  ListToolsRequestSchema: unknown;
  CallToolRequestSchema: unknown;
}

/** What the suite uses of an SDK `Server`. */
interface SdkServer {
  setRequestHandler(
    schema: unknown,
    handler: (request: { params: { name: string; arguments?: unknown } }) => unknown,
  ): void;
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

type SdkServerClass = new (
  info: { name: string; version: string },
  options: { capabilities: { tools: Record<string, never> }; instructions?: string },
) => SdkServer;

/** A pattern that backtracks catastrophically on "aaa…ab": 2^n steps for n a's in a backtracking engine. */
export const BACKTRACKING_PATTERN = "^(a+)+$";
/** A 40-character text that makes it backtrack: about an hour of a blocked event loop in V8. */
export const BACKTRACKING_TEXT = `${"a".repeat(39)}b`;

/** One tool as `tools/list` answers it. */
export interface HostileTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** A server serving these tools, and the client side of the transport linked to it. */
export async function serveHostile(
  sdk: HostileServerSdk,
  tools: readonly HostileTool[],
  options: {
    instructions?: string;
    /** what a call answers (default: a text block naming the tool) */
    answer?: (name: string, input: unknown) => unknown;
  } = {},
): Promise<{ transport: unknown; close: () => Promise<void> }> {
  const Server = sdk.Server as unknown as SdkServerClass;
  const server = new Server(
    { name: "hostile", version: "1.0.0" },
    {
      capabilities: { tools: {} },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    },
  );
  server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request) => {
    const { name, arguments: input } = request.params;
    return options.answer?.(name, input) ?? { content: [{ type: "text", text: `called ${name}` }] };
  });
  const [clientSide, serverSide] = sdk.InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { transport: clientSide, close: () => server.close() };
}

const values = (count: number) => Array.from({ length: count }, (_, index) => `v${index}`);

/** Roughly a million characters of the sentence. */
export const aMillionCharacters = (sentence: string) =>
  sentence.repeat(Math.ceil(1_000_000 / sentence.length));

/** Where text from the server would declare `pwned…` if it escaped its comment or string. */
export const ESCAPES = [
  "*/ declare const pwned1: 1; /*",
  "Line.\u2028declare const pwned2: 1;",
  "Line.\u2029declare const pwned3: 1;",
  "Line.\ndeclare const pwned4: 1;",
  "Line.\rdeclare const pwned5: 1;",
];

/** Tools whose metadata is huge: enums of 50,000 and 100,000 values, descriptions, names, titles. */
export function floodingTools(): HostileTool[] {
  const long = aMillionCharacters("Does one thing. ");
  return [
    {
      name: "pick",
      description: long,
      inputSchema: {
        type: "object",
        properties: {
          small: { type: "string", enum: values(50_000) },
          large: { type: "string", enum: values(100_000), description: long },
        },
        required: ["small"],
      },
      outputSchema: {
        type: "object",
        properties: { chosen: { type: "string", enum: values(100_000) } },
      },
    },
    {
      name: `tool_${"x".repeat(100_000)}`,
      title: aMillionCharacters("Title "),
      description: "A tool with a very long name.",
      inputSchema: { type: "object", properties: {} },
    },
    ...escapingTools(),
  ];
}

/**
 * `count` tools, each described by one sentence as long as a description may be: declared together
 * they are longer than one `describe` answer shows.
 */
export function manyTools(count: number, sentenceLength: number): HostileTool[] {
  const sentence = "and it does one more thing ".repeat(Math.ceil(sentenceLength / 27));
  return Array.from({ length: count }, (_, index) => ({
    name: `tool_${index}`,
    description: `Tool ${index} ${sentence}`,
    inputSchema: { type: "object", properties: { id: { type: "string" } } },
  }));
}

/**
 * Tools whose names, titles, descriptions, property names, constraints and values carry `ESCAPES`.
 * Two of them document the same properties the same way, which an overview moves to `//` lines.
 */
export function escapingTools(): HostileTool[] {
  const named = (extra: Record<string, unknown>) => ({
    type: "object",
    properties: {
      ...Object.fromEntries(
        ESCAPES.map((text, index) => [
          `field${index}${text}`,
          { type: "string", description: "Documented the same way twice." },
        ]),
      ),
      ...extra,
    },
  });
  const valued = Object.fromEntries(
    ESCAPES.map((text, index) => [
      `value${index}`,
      { type: "string", description: text, pattern: text, format: text, enum: [text] },
    ]),
  );
  return [
    {
      name: "escape",
      title: ESCAPES.join(" "),
      description: ESCAPES.join(" "),
      inputSchema: named({ values: { type: "object", properties: valued } }),
    },
    { name: "escape_again", inputSchema: named({ count: { type: "number" } }) },
  ];
}

/** Tools whose annotations claim they are safe to run, beside one that says nothing. */
export const ANNOTATED_TOOLS: readonly HostileTool[] = [
  { name: "read", annotations: { readOnlyHint: true }, inputSchema: { type: "object" } },
  {
    name: "read_and_destroy",
    annotations: { readOnlyHint: true, destructiveHint: true },
    inputSchema: { type: "object" },
  },
  {
    name: "only_adds",
    annotations: { readOnlyHint: false, destructiveHint: false },
    inputSchema: { type: "object" },
  },
  { name: "plain", inputSchema: { type: "object" } },
];

/** A tool whose input and output schemas carry the backtracking pattern. */
export const BACKTRACKING_TOOL: HostileTool = {
  name: "match",
  description: "Answers with the text it is given.",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string", pattern: BACKTRACKING_PATTERN } },
    required: ["text"],
  },
  outputSchema: {
    type: "object",
    properties: { text: { type: "string", pattern: BACKTRACKING_PATTERN } },
    patternProperties: { [BACKTRACKING_PATTERN]: { type: "string" } },
    required: ["text"],
  },
};
