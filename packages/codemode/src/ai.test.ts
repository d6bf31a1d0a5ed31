// createCodeTool (codemode/ai), the stateless tool of seed 003: tools as typed methods of `codemode`,
// code normalized and run by a real executor, approval-gated tools left out; driven by the AI SDK's
// mock model through generateText.
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { codeThenAnswerModel } from "../test/code-then-answer-model.ts";
import { createCodeTool } from "./ai.ts";

function projectTools(deleted: string[]) {
  return {
    listProjects: tool({
      description: "List the projects.",
      inputSchema: z.object({ status: z.enum(["active", "archived"]).optional() }),
      outputSchema: z.array(z.object({ id: z.string(), name: z.string() })),
      execute: async () => [
        { id: "p1", name: "Website" },
        { id: "p2", name: "Mobile app" },
      ],
    }),
    countTasks: tool({
      description: "How many tasks a project has.",
      inputSchema: jsonSchema<{ projectId: string }>({
        type: "object",
        properties: { projectId: { type: "string" } },
        required: ["projectId"],
      }),
      execute: async ({ projectId }) => (projectId === "p1" ? 3 : 5),
    }),
    deleteProject: tool({
      description: "Delete a project.",
      inputSchema: z.object({ id: z.string() }),
      needsApproval: true,
      execute: async ({ id }) => {
        deleted.push(id);
        return { deleted: id };
      },
    }),
    renameProject: tool({
      description: "Rename a project.",
      inputSchema: z.object({ id: z.string(), name: z.string() }),
      needsApproval: async () => false,
      execute: async () => ({ renamed: true }),
    }),
  };
}

describe("createCodeTool", () => {
  it("describes the tools as TypeScript under codemode and leaves approval-gated ones out", () => {
    const codeTool = createCodeTool({ tools: projectTools([]), executor: new QuickJSExecutor() });
    expect(codeTool.description).toContain("declare const codemode");
    expect(codeTool.description).toContain("listProjects(");
    expect(codeTool.description).toContain("countTasks(");
    expect(codeTool.description).toMatch(/"active" \| "archived"/);
    expect(codeTool.description).not.toContain("deleteProject");
    expect(codeTool.description).not.toContain("renameProject");
  });

  it("runs the model's code through generateText and returns code, result and logs", async () => {
    const deleted: string[] = [];
    const codeTool = createCodeTool({
      tools: projectTools(deleted),
      executor: new QuickJSExecutor(),
    });
    // a fenced, statement-style program, as models write them
    const code = [
      "```js",
      "const projects = await codemode.listProjects({});",
      "const counts = [];",
      "for (const project of projects) counts.push(await codemode.countTasks({ projectId: project.id }));",
      'console.log("projects:", projects.length);',
      "try { await codemode.deleteProject({ id: 'p1' }); } catch (error) { counts.push(error.message); }",
      "counts",
      "```",
    ].join("\n");
    const { model, prompts } = codeThenAnswerModel(code, "Website has 3 tasks, Mobile app 5.");
    const answer = await generateText({
      model,
      tools: { codemode: codeTool },
      stopWhen: stepCountIs(3),
      prompt: "How many tasks per project?",
    });
    expect(answer.text).toBe("Website has 3 tasks, Mobile app 5.");
    const output = answer.steps[0]?.toolResults[0]?.output as {
      code: string;
      result: unknown[];
      logs: string[];
    };
    expect(output.result.slice(0, 2)).toEqual([3, 5]);
    // the gated tool is not there to call
    expect(String(output.result[2])).toMatch(/deleteProject/);
    expect(deleted).toEqual([]);
    expect(output.logs).toEqual(["projects: 2"]);
    expect(output.code).not.toContain("```");
    // the second step saw the tool's result
    expect(JSON.stringify(prompts[1])).toContain('"logs":["projects: 2"]');
  });

  it("throws the failure with its console output, for the AI SDK to report", async () => {
    const codeTool = createCodeTool({ tools: projectTools([]), executor: new QuickJSExecutor() });
    const execute = codeTool.execute as NonNullable<typeof codeTool.execute>;
    await expect(
      execute(
        { code: "async () => { console.log('before'); await codemode.countTasks({}); }" },
        { toolCallId: "t", messages: [], context: undefined },
      ),
    ).rejects.toThrow(/Invalid input for codemode\.countTasks[\s\S]*Console output:\nbefore/);
  });

  it("leaves out what AI SDK 7's toolApproval gates, and runs no call a rule would ask about", async () => {
    const deleted: string[] = [];
    const tools = projectTools(deleted);
    const codeTool = createCodeTool({
      tools: { ...tools, deleteProject: { ...tools.deleteProject, needsApproval: undefined } },
      executor: new QuickJSExecutor(),
      toolApproval: {
        // the AI SDK 7 way: the tools say nothing, the route's rules decide
        deleteProject: "user-approval",
        listProjects: { type: "denied", reason: "not here" },
        renameProject: "approved",
        countTasks: ({ projectId }: { projectId: string }) =>
          projectId === "p2" ? "user-approval" : undefined,
      },
    });
    expect(codeTool.description).not.toContain("deleteProject");
    expect(codeTool.description).not.toContain("listProjects");
    // a rule that approves outright keeps a tool its own needsApproval would leave out
    expect(codeTool.description).toContain("renameProject(");
    expect(codeTool.description).toContain("countTasks(");
    const execute = codeTool.execute as NonNullable<typeof codeTool.execute>;
    const output = (await execute(
      {
        code: "async () => [await codemode.countTasks({ projectId: 'p1' }), await codemode.countTasks({ projectId: 'p2' }).catch((error) => error.message)]",
      },
      { toolCallId: "t", messages: [], context: undefined },
    )) as { result: [number, string] };
    expect(output.result[0]).toBe(3);
    expect(output.result[1]).toMatch(/countTasks needs a person's approval/);
    expect(deleted).toEqual([]);
  });

  it("refuses what it cannot work with", () => {
    expect(() =>
      createCodeTool({ tools: undefined as never, executor: new QuickJSExecutor() }),
    ).toThrow(/ToolSet/);
    expect(() => createCodeTool({ tools: {}, executor: undefined as never })).toThrow(/executor/);
  });

  it("gives each call an idempotency key no other instance or run shares", async () => {
    const keys: string[] = [];
    const tools = {
      record: tool({
        description: "Record a call.",
        inputSchema: z.object({}),
        execute: async (_input, options) => {
          keys.push(options.toolCallId);
          return keys.length;
        },
      }),
    };
    // two server instances (say, two processes behind one endpoint) run the same code at once
    const instances = [0, 1].map(() => createCodeTool({ tools, executor: new QuickJSExecutor() }));
    await Promise.all(
      instances.flatMap((codeTool) =>
        [0, 1].map(() =>
          (codeTool.execute as NonNullable<typeof codeTool.execute>)(
            { code: "async () => { await codemode.record({}); await codemode.record({}); }" },
            { toolCallId: "t", messages: [], context: undefined },
          ),
        ),
      ),
    );
    expect(keys).toHaveLength(8);
    expect(new Set(keys).size).toBe(8);
    // a run's id is random, not a clock reading and a counter
    expect(keys.every((key) => /^codemode-code_[0-9a-f]{32}-[01]$/.test(key))).toBe(true);
  });

  it("gives two processes that start a run in the same millisecond different keys", async () => {
    // a process is a fresh copy of the module (its counters start again) under the same clock
    vi.useFakeTimers({ now: Date.UTC(2026, 11, 6), toFake: ["Date"] });
    try {
      const keys: string[] = [];
      for (const _process of [1, 2]) {
        vi.resetModules();
        const fresh = (await import("./ai.ts")) as typeof import("./ai.ts");
        const codeTool = fresh.createCodeTool({
          tools: {
            record: tool({
              description: "Record a call.",
              inputSchema: z.object({}),
              execute: async (_input, options) => keys.push(options.toolCallId),
            }),
          },
          executor: new QuickJSExecutor(),
        });
        await (codeTool.execute as NonNullable<typeof codeTool.execute>)(
          { code: "async () => { await codemode.record({}); }" },
          { toolCallId: "t", messages: [], context: undefined },
        );
      }
      expect(keys).toHaveLength(2);
      expect(keys[0]).not.toBe(keys[1]);
    } finally {
      vi.useRealTimers();
    }
  });
});
