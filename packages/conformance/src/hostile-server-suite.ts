import {
  type CallContext,
  type Connector,
  createCodemodeRuntime,
  memoryStore,
} from "@codemode/core";
import { METADATA_LIMITS } from "@codemode/typegen";
import { afterEach, describe, expect } from "vitest";
import { codeOutsideCommentsAndStrings } from "./hostile-server-code.ts";
import {
  ANNOTATED_TOOLS,
  aMillionCharacters,
  BACKTRACKING_TEXT,
  BACKTRACKING_TOOL,
  ESCAPES,
  escapingTools,
  floodingTools,
  type HostileServerSdk,
  type HostileTool,
  manyTools,
  serveHostile,
} from "./hostile-server-tools.ts";
import { InProcessExecutor } from "./in-process-executor.ts";
import { conformanceTest, type KnownGap } from "./known-gaps.ts";

// typed by hand: the suite compiles without Node, DOM or Workers types
declare const AbortController: new () => { readonly signal: CallContext["signal"] };

export type { HostileServerSdk } from "./hostile-server-tools.ts";

/** A connector the suite made, closed after its test when it can be. */
type MadeConnector = Connector & { close?: () => Promise<void> };

export interface HostileServerConformanceOptions {
  name: string;
  /** the MCP SDK the hostile server is built with (this package does not depend on it) */
  sdk: HostileServerSdk;
  /**
   * A connector named "hostile" over the client side of an in-memory transport (an SDK
   * `InMemoryTransport`) to the suite's server, with the host's default settings.
   */
  connect: (transport: unknown) => MadeConnector | Promise<MadeConnector>;
  /**
   * The same for a server the host trusts by name (for `mcpConnector`, `trustAnnotations: true`);
   * without it, the trusted cases are skipped.
   */
  connectTrusted?: (transport: unknown) => MadeConnector | Promise<MadeConnector>;
  knownGaps?: readonly KnownGap[];
}

const context = (): CallContext => ({
  executionId: "exec_hostile",
  seq: 0,
  idempotencyKey: "exec_hostile:0",
  signal: new AbortController().signal,
});

/**
 * What an MCP connector must withstand from a server the host does not control (issue 26): a
 * schema `pattern` that backtracks never runs on the host, so a call with a 40-character result
 * finishes; enumerations of 50,000 and 100,000 values, a million-character description, instructions
 * and title, a 100,000-character tool name and 1,500 tools come back from `describe`, `search` and
 * the tool description bounded by `METADATA_LIMITS`; text that would close a comment or a string stays data;
 * and annotations decide nothing about approval unless the host trusts the server.
 */
export function runHostileServerConformance(options: HostileServerConformanceOptions): void {
  const suite = conformanceTest(options.knownGaps);
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A connector to a new hostile server with these tools. */
  const hostile = async (
    tools: readonly HostileTool[],
    serve: Parameters<typeof serveHostile>[2] = {},
    connect = options.connect,
  ): Promise<MadeConnector> => {
    const server = await serveHostile(options.sdk, tools, serve);
    cleanups.push(server.close);
    const connector = await connect(server.transport);
    cleanups.push(async () => connector.close?.());
    return connector;
  };

  const runtimeOf = (connector: Connector) =>
    createCodemodeRuntime({
      store: memoryStore(),
      executor: new InProcessExecutor(),
      connectors: [connector],
    });

  describe(`hostile MCP server: ${options.name}`, () => {
    suite.group("schema patterns", (test) => {
      // A backtracking engine spends 2^39 steps on this text, with the event loop held: no timer,
      // timeout or abort can end it. These tests finish only when no such engine runs on the host.
      const answer = () => {
        const value = { text: BACKTRACKING_TEXT, [BACKTRACKING_TEXT]: BACKTRACKING_TEXT };
        return {
          structuredContent: value,
          content: [{ type: "text", text: JSON.stringify(value) }],
        };
      };

      test("a call whose result meets a backtracking pattern settles", async () => {
        const connector = await hostile([BACKTRACKING_TOOL], { answer });
        const outcome = await connector
          .invoke("match", { text: BACKTRACKING_TEXT }, context())
          .then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
        if ("error" in outcome) {
          expect(outcome.error).toBeInstanceOf(Error);
          expect(String((outcome.error as Error).message).length).toBeGreaterThan(0);
        } else {
          expect(outcome.value).toMatchObject({ text: BACKTRACKING_TEXT });
        }
      });

      test("a pass calling it ends within its budget", async () => {
        const connector = await hostile([BACKTRACKING_TOOL], { answer });
        const runtime = runtimeOf(connector);
        const output = await runtime.execute({
          code: `async () => {
            try {
              return (await hostile.match({ text: ${JSON.stringify(BACKTRACKING_TEXT)} })).text;
            } catch (error) {
              return "refused: " + error.message;
            }
          }`,
        });
        // it asks for approval (annotations are not trusted) or, once approved, answers
        const settled =
          output.status === "paused"
            ? await runtime.approve({ executionId: output.executionId })
            : output;
        expect(settled.status).toBe("completed");
      });
    });

    suite.group("huge metadata", (test) => {
      const instructions = aMillionCharacters("Use these tools. ");
      const { descriptionLength, instructionsLength, enumValues, nameLength, keywordsLength } =
        METADATA_LIMITS;

      test("describe bounds enums of 50,000 and 100,000 values and long texts", async () => {
        const connector = await hostile(floodingTools(), { instructions });
        const runtime = runtimeOf(connector);
        const overview = await runtime.describe("hostile");
        expect(overview.kind).toBe("connector");
        // instructions, a few descriptions, three enumerations of short values ("v12345" | …) and
        // the rest of the declarations: never the megabytes the server sent
        const bound = instructionsLength + 4 * descriptionLength + 3 * enumValues * 16 + 10_000;
        expect(overview.types.length).toBeLessThan(bound);
        expect(overview.description?.length ?? 0).toBeLessThan(instructionsLength + 100);
        expect(overview.types).toContain('"v0"');
        expect(overview.types).not.toContain(`"v${enumValues + 1}"`);

        const method = await runtime.describe("hostile.pick");
        expect(method.kind).toBe("method");
        expect(method.description?.length ?? 0).toBeLessThan(descriptionLength + 100);
        expect(method.types.length).toBeLessThan(bound);
      });

      test("a 100,000-character name becomes a bounded path that works", async () => {
        const connector = await hostile(floodingTools(), { instructions });
        const runtime = runtimeOf(connector);
        const found = await runtime.search("tool with a very long name");
        const path = found.results.find((result) => result.path.startsWith("hostile.tool_"))?.path;
        expect(path).toBeDefined();
        expect((path as string).length).toBeLessThanOrEqual(2 * nameLength + 1);
        const described = await runtime.describe(path as string);
        expect(described.kind).toBe("method");
        expect(described.types.length).toBeLessThan(keywordsLength + descriptionLength);
        for (const result of found.results) {
          expect(result.path.length).toBeLessThanOrEqual(2 * nameLength + 1);
          expect(result.description?.length ?? 0).toBeLessThan(1_000);
        }
      });

      test("describe lists a connector too large to declare at once, also in a pass", async () => {
        const { describeLength } = METADATA_LIMITS;
        const connector = await hostile(manyTools(1_500, descriptionLength));
        const runtime = runtimeOf(connector);
        const overview = await runtime.describe("hostile");
        expect(overview.types.length).toBeLessThanOrEqual(describeLength);
        expect(overview.types).toMatch(/\n\/\/ hostile\.tool_0( @approval)?: Tool 0 and it does/);
        expect(overview.types).toMatch(/\/\/ … and \d+ more: find them with codemode\.search/);
        const method = await runtime.describe("hostile.tool_1499");
        expect(method.types).toContain("tool_1499(");
        const output = await runtime.execute({
          code: 'async () => { const { types } = await codemode.describe("hostile"); return types.length }',
        });
        expect(output).toMatchObject({ status: "completed", result: overview.types.length });
      });

      test("the tool description stays short whatever the instructions", async () => {
        const connector = await hostile(floodingTools(), { instructions });
        const runtime = runtimeOf(connector);
        await runtime.ready();
        expect(runtime.tool().description.length).toBeLessThan(4_000);
      });

      test("no text from the server becomes code in the declarations", async () => {
        const connector = await hostile(escapingTools(), { instructions: ESCAPES.join("\n") });
        const runtime = runtimeOf(connector);
        for (const target of ["hostile", "hostile.escape"]) {
          const { types } = await runtime.describe(target);
          expect(codeOutsideCommentsAndStrings(types)).not.toMatch(/pwned/);
        }
      });
    });

    suite.group("annotations", (test) => {
      const approvals = async (connector: Connector) =>
        Object.fromEntries(
          Object.entries(await connector.methods()).map(([name, method]) => [
            name,
            method.requiresApproval !== undefined && method.requiresApproval !== false,
          ]),
        );

      test("decide no approval away for a server the host does not trust", async () => {
        const connector = await hostile(ANNOTATED_TOOLS);
        expect(await approvals(connector)).toEqual({
          read: true,
          read_and_destroy: true,
          only_adds: true,
          plain: true,
        });
      });

      test("a pass calling a read-only tool of an untrusted server waits", async () => {
        const connector = await hostile(ANNOTATED_TOOLS);
        const output = await runtimeOf(connector).execute({
          code: "async () => await hostile.read({})",
        });
        expect(output.status).toBe("paused");
      });

      const trusted = options.connectTrusted;
      if (trusted) {
        test("decide for a trusted server, destructive over read-only", async () => {
          const connector = await hostile(ANNOTATED_TOOLS, {}, trusted);
          expect(await approvals(connector)).toEqual({
            read: false,
            read_and_destroy: true,
            only_adds: false,
            plain: true,
          });
        });
      }
    });
  });
}
