// The `notes` connector end to end in Node: the MCP SDK's client over Streamable HTTP, whose fetch
// reaches the agent's own `/mcp` handler in process (a stateless McpServer per request), under the
// durable runtime with the offline model; approvals come from the tools' annotations.
import { IDEMPOTENCY_KEY_META } from "@codemode/connector-mcp";
import { describe, expect, it } from "vitest";
import { handleServices } from "../src/handle-services.ts";
import { SELF_ORIGIN, selfFetch } from "../src/self-fetch.ts";
import { agentInNode } from "./agent-in-node.ts";
import { mcpResult } from "./mcp-result.ts";

describe("the notes MCP server and connector", () => {
  it("are declared with approvals from the tools' annotations", async () => {
    const demo = agentInNode();
    await demo.runtime.ready();
    expect(demo.runtime.tool().description).toContain("- notes: The team's notes");
    const { types } = (await demo.runtime.describe("notes")) as { types: string };
    expect(types).toContain("search_notes(input: SearchNotesInput): Promise<SearchNotesOutput>;");
    expect(types).toMatch(/delete_note\(input[^\n]*\n?/);
    expect(types).toMatch(/Delete a note for good\.[^\n]*@approval/);
    expect(types).not.toMatch(/add_note[^\n]*@approval/);
    expect(types).not.toMatch(/Read one note in full\.[^\n]*@approval/);
  });

  it("searches the notes and the tracker in one program", async () => {
    const demo = agentInNode();
    const { answer, output } = await demo.say("search the notes for release");
    expect(output).toMatchObject({ status: "completed" });
    expect(answer).toContain('2 notes mention "release":');
    expect(answer).toContain("- note #1 Release checklist: Before a release: freeze main");
    expect(answer).toContain("No task in the tracker mentions it.");
    const run = await demo.runtime.execution(output?.executionId ?? "");
    expect(run?.calls.map((call) => `${call.connector}.${call.method}`)).toEqual([
      "notes.search_notes",
      "tracker.list_tasks",
    ]);
  });

  it("adds a note at once, without approval", async () => {
    const demo = agentInNode();
    const { answer, output } = await demo.say("add a note Deploy freeze: no deploys on Fridays");
    expect(output).toMatchObject({ status: "completed" });
    expect(answer).toContain('Added note #6 "Deploy freeze"');
    expect(demo.notes.get(6)).toMatchObject({
      title: "Deploy freeze",
      body: "no deploys on Fridays",
    });
  });

  it("pauses a delete for approval, and deletes on approval", async () => {
    const demo = agentInNode();
    const { card } = await demo.say("delete note 3");
    expect(card?.pending[0]?.effect?.summary).toContain('Deletes note #3 "On-call handbook"');
    const [pending] = await demo.runtime.pending();
    expect(pending).toMatchObject({
      seq: 1,
      connector: "notes",
      method: "delete_note",
      args: { id: 3 },
    });
    expect(demo.notes.get(3)).toBeDefined();
    const done = await demo.runtime.approve({ executionId: pending?.executionId ?? "" });
    expect(done).toMatchObject({
      status: "completed",
      result: { id: 3, title: "On-call handbook" },
    });
    expect(demo.notes.get(3)).toBeUndefined();
  });

  it("reports a tool's error as a catchable error", async () => {
    const demo = agentInNode();
    const output = await demo.runtime.execute({
      code: "async () => { try { await notes.get_note({ id: 99 }); } catch (error) { return error.message; } }",
    });
    expect(output).toMatchObject({ status: "completed" });
    expect(output.status === "completed" && output.result).toContain("No note has the id 99.");
  });

  it("serves /mcp to any client, and adds a note once per idempotency key", async () => {
    const { stores } = agentInNode();
    const fetch = selfFetch(
      async (request) =>
        (await handleServices(request, stores)) ?? new Response(null, { status: 404 }),
    );
    const post = async (method: string, params: object) => {
      const response = await fetch(`${SELF_ORIGIN}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      expect(response.status).toBe(200);
      return mcpResult<Record<string, unknown>>(response);
    };
    const listed = (await post("tools/list", {})) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((tool) => tool.name)).toEqual([
      "search_notes",
      "get_note",
      "add_note",
      "delete_note",
    ]);
    const add = {
      name: "add_note",
      arguments: { title: "A", body: "b" },
      _meta: { [IDEMPOTENCY_KEY_META]: "exec_1:0" },
    };
    const first = await post("tools/call", add);
    const second = await post("tools/call", add);
    expect(first.structuredContent).toMatchObject({ id: 6, title: "A" });
    expect(second.structuredContent).toEqual(first.structuredContent);
    expect(stores.notes.list()).toHaveLength(6);

    const get = await fetch(`${SELF_ORIGIN}/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    await expect(fetch("https://example.com/mcp")).rejects.toThrow(/reaches only/);
  });
});
