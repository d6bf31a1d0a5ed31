// Real MCP servers over stdio: from npm (pinned devDependencies, built on SDK v1: MCP 2025-11-25),
// started with `node <their bin>`, and the catalog server through SDK v2's serveStdio, on either era.
// The connector's client asks server/discover on a sibling process first (the SDK's own probe).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CallContext } from "@codemode/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { INSTRUCTIONS } from "../test/catalog-server.ts";
import type { McpConnector } from "./mcp-connector.ts";
import { mcpStdioConnector } from "./stdio.ts";

/** vi.waitFor gives up after 1 s by default: an outer bound for a loaded machine instead. */
const WAIT = { timeout: 20_000 };

const require = createRequire(import.meta.url);

/** The path of a package's only bin. */
function binOf(pkg: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> };
  return join(dirname(manifest), Object.values(bin)[0] as string);
}

const context = (seq: number): CallContext => ({
  executionId: "exec_stdio",
  seq,
  idempotencyKey: `exec_stdio:${seq}`,
  signal: new AbortController().signal,
});

describe("mcpStdioConnector with @modelcontextprotocol/server-memory", () => {
  let scratch: string;
  let memory: McpConnector;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "connector-mcp-"));
    memory = mcpStdioConnector({
      name: "memory",
      command: process.execPath,
      args: [binOf("@modelcontextprotocol/server-memory")],
      env: { MEMORY_FILE_PATH: join(scratch, "memory.jsonl") },
      stderr: "ignore",
      trustAnnotations: true, // a reference server the host chose: its annotations decide
    });
  });

  afterAll(async () => {
    await memory.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("lists its nine tools with schemas and approvals from their annotations", async () => {
    const methods = await memory.methods();
    expect((await memory.client()).getProtocolEra()).toBe("legacy");
    expect(Object.keys(methods).sort()).toEqual([
      "add_observations",
      "create_entities",
      "create_relations",
      "delete_entities",
      "delete_observations",
      "delete_relations",
      "open_nodes",
      "read_graph",
      "search_nodes",
    ]);
    expect(methods.create_entities?.inputSchema).toMatchObject({
      type: "object",
      properties: { entities: { type: "array" } },
    });
    expect(methods.read_graph?.outputSchema).toMatchObject({ type: "object" });
    const approving = Object.entries(methods)
      .filter(([, method]) => method.requiresApproval)
      .map(([name]) => name)
      .sort();
    expect(approving).toEqual(["delete_entities", "delete_observations", "delete_relations"]);
  });

  it("creates, reads and deletes entities, unwrapping structured results", async () => {
    const entity = { name: "Ada", entityType: "person", observations: ["wrote programs"] };
    expect(await memory.invoke("create_entities", { entities: [entity] }, context(0))).toEqual({
      entities: [entity],
    });
    expect(await memory.invoke("read_graph", {}, context(1))).toEqual({
      entities: [entity],
      relations: [],
    });
    expect(await memory.invoke("search_nodes", { query: "programs" }, context(2))).toMatchObject({
      entities: [{ name: "Ada" }],
    });
    await memory.invoke("delete_entities", { entityNames: ["Ada"] }, context(3));
    expect(await memory.invoke("read_graph", {}, context(4))).toEqual({
      entities: [],
      relations: [],
    });
  });

  it("rejects invalid input with the server's message", async () => {
    await expect(
      memory.invoke("create_entities", { entities: "none" }, context(5)),
    ).rejects.toMatchObject({ code: "CONNECTOR_FAILED", message: /entities/ });
  });
});

describe("mcpStdioConnector with @modelcontextprotocol/server-everything", () => {
  let everything: McpConnector;

  beforeAll(() => {
    everything = mcpStdioConnector({
      name: "everything",
      command: process.execPath,
      args: [binOf("@modelcontextprotocol/server-everything"), "stdio"],
      stderr: "ignore",
    });
  });

  afterAll(async () => {
    await everything.close();
  });

  it("lists kebab-case tools as identifiers and takes the server's instructions", async () => {
    const methods = await everything.methods();
    // a client without roots, sampling or elicitation gets the twelve tools that need none of them
    expect(Object.keys(methods)).toEqual([
      "echo",
      "get_annotated_message",
      "get_env",
      "get_resource_links",
      "get_resource_reference",
      "get_structured_content",
      "get_sum",
      "get_tiny_image",
      "gzip_file_as_resource",
      "toggle_simulated_logging",
      "toggle_subscriber_updates",
      "trigger_long_running_operation",
    ]);
    expect(methods.get_sum?.keywords).toContain("get-sum");
    // untrusted annotations decide nothing: even a read-only tool asks
    expect(methods.echo?.requiresApproval).toBe(true);
    expect(everything.instructions?.length).toBeGreaterThan(0);
  });

  it("returns plain text as a string, structured content as data, mixed content as is", async () => {
    expect(await everything.invoke("echo", { message: "hi" }, context(0))).toBe("Echo: hi");
    expect(await everything.invoke("get_sum", { a: 2, b: 3 }, context(1))).toMatch(/5/);
    expect(
      await everything.invoke("get_structured_content", { location: "New York" }, context(2)),
    ).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
    const image = await everything.invoke("get_tiny_image", {}, context(3));
    expect(Array.isArray(image)).toBe(true);
    expect(image).toEqual(expect.arrayContaining([expect.objectContaining({ type: "image" })]));
  });
});

const STDIO_SERVER = fileURLToPath(new URL("../test/stdio-server.ts", import.meta.url));

describe.each([
  ["serveStdio serving both eras", [], "modern"],
  ["serveStdio serving 2026-07-28 only", ["--modern-only"], "modern"],
])("mcpStdioConnector with %s", (_name, flags, era) => {
  let catalog: McpConnector;

  beforeAll(() => {
    catalog = mcpStdioConnector({
      name: "warehouse",
      command: process.execPath,
      args: [STDIO_SERVER, ...flags],
      stderr: "ignore",
    });
  });

  afterAll(async () => {
    await catalog.close();
  });

  it("negotiates the era, lists, calls and hears the tools change", async () => {
    expect(Object.keys(await catalog.methods())).toContain("get_item");
    expect((await catalog.client()).getProtocolEra()).toBe(era);
    expect(catalog.instructions).toBe(INSTRUCTIONS);
    expect(await catalog.invoke("get_item", { id: "5" }, context(0))).toEqual({
      id: "5",
      name: "Item 5",
      stock: 3,
    });
    expect(await catalog.invoke("grow", {}, context(1))).toBe("growing");
    await vi.waitFor(
      async () => expect(Object.keys(await catalog.methods())).toContain("grown"),
      WAIT,
    );
    expect(await catalog.invoke("grown", {}, context(2))).toBe("grown");
  });
});

describe("mcpStdioConnector pinned to the 2025 era with serveStdio", () => {
  it("speaks initialize when told to", async () => {
    const catalog = mcpStdioConnector({
      name: "warehouse",
      command: process.execPath,
      args: [STDIO_SERVER],
      stderr: "ignore",
      clientOptions: { versionNegotiation: { mode: "legacy" } },
    });
    try {
      expect(await catalog.invoke("greet", { name: "Flo" }, context(0))).toBe("Hello, Flo!");
      expect((await catalog.client()).getProtocolEra()).toBe("legacy");
    } finally {
      await catalog.close();
    }
  });
});
