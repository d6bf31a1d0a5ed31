// The stateless Code Mode tools (createCodeTool, createBrowserCodeTool) keep no journal, so nobody
// can be asked: every tool that may need approval is left out of the sandbox, and a call that would
// wait for a person fails without running. Red-team findings: a truthy `needsApproval` other than
// `true` or a function (`1`, `"yes"`, `{}`) left the tool in and it ran unasked, where the AI SDK
// asks; and a `toolApproval` function was asked about the raw input, not the parsed one `execute`
// receives.
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { type Tool, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createCodeTool } from "./ai.ts";
import { createBrowserCodeTool } from "./browser.ts";
import type { CodeToolOutput } from "./code-tool.ts";

const executor = new QuickJSExecutor();

/** Runs `code` through an AI SDK tool's `execute`, as the AI SDK calls it. */
async function run(
  codeTool: Tool<{ code: string }, CodeToolOutput>,
  code: string,
): Promise<CodeToolOutput> {
  const execute = codeTool.execute as NonNullable<typeof codeTool.execute>;
  return (await execute(
    { code },
    { toolCallId: "t", messages: [], context: undefined },
  )) as CodeToolOutput;
}

/** A `wipe` tool with this `needsApproval`, and the calls that ran. */
function wiping(needsApproval: unknown) {
  const ran: string[] = [];
  const wipe = tool({
    description: "Wipe everything.",
    inputSchema: z.object({}),
    needsApproval: needsApproval as never,
    execute: async () => {
      ran.push("wiped");
      return "wiped";
    },
  });
  return { tools: { wipe }, ran };
}

/** What the sandbox gets from calling `codemode.wipe({})`: its result, or its error's message. */
const CALL_WIPE =
  "async () => { try { return await codemode.wipe({}); } catch (error) { return String(error.message); } }";

const TRUTHY: Array<[string, unknown]> = [
  ["true", true],
  ["a function", () => false],
  ["1", 1],
  ['"yes"', "yes"],
  ['"false"', "false"],
  ["an object", {}],
  ["an array", []],
];

const FALSY: Array<[string, unknown]> = [
  ["false", false],
  ["0", 0],
  ["an empty string", ""],
  ["null", null],
  ["undefined", undefined],
];

describe("createCodeTool leaves out every tool whose needsApproval is truthy", () => {
  it.each(TRUTHY)("%s: left out, and nothing runs", async (_what, needsApproval) => {
    const { tools, ran } = wiping(needsApproval);
    const codeTool = createCodeTool({ tools, executor });
    expect(codeTool.description).not.toContain("wipe");
    const output = await run(codeTool, CALL_WIPE);
    expect(output.result).not.toBe("wiped");
    expect(ran).toEqual([]);
  });

  it.each(FALSY)("%s: kept, and it runs", async (_what, needsApproval) => {
    const { tools, ran } = wiping(needsApproval);
    const output = await run(createCodeTool({ tools, executor }), CALL_WIPE);
    expect(output.result).toBe("wiped");
    expect(ran).toEqual(["wiped"]);
  });

  it("a call whose requiresApproval is a truthy flag is refused when it is made", async () => {
    // a tool whose needsApproval reads falsy when the tool is sorted and truthy when the connector
    // is made: the sandbox has the method, and the call path alone stands between it and execute
    const { tools, ran } = wiping(undefined);
    let reads = 0;
    Object.defineProperty(tools.wipe, "needsApproval", { get: () => (reads++ === 0 ? 0 : 1) });
    const codeTool = createCodeTool({ tools, executor });
    expect(codeTool.description).toContain("wipe(");
    const output = await run(codeTool, CALL_WIPE);
    expect(output.result).toMatch(/wipe needs a person's approval/);
    expect(ran).toEqual([]);
  });
});

describe("createCodeTool leaves out every tool a toolApproval entry does not plainly clear", () => {
  it.each<[string, unknown]>([
    ['"user-approval"', "user-approval"],
    ['"denied"', "denied"],
    ["true", true],
    ['"ask"', "ask"],
    ['{ type: "USER-APPROVAL" }', { type: "USER-APPROVAL" }],
    ["an object without a type", { reason: "money" }],
    ["1", 1],
  ])("%s: left out, and nothing runs", async (_what, entry) => {
    const { tools, ran } = wiping(undefined);
    const codeTool = createCodeTool({ tools, executor, toolApproval: { wipe: entry as never } });
    expect(codeTool.description).not.toContain("wipe");
    const output = await run(codeTool, CALL_WIPE);
    expect(output.result).not.toBe("wiped");
    expect(ran).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['"approved"', "approved"],
    ['"not-applicable"', "not-applicable"],
    ['{ type: "approved" }', { type: "approved", reason: "fine" }],
  ])("%s: kept over needsApproval: true, and it runs", async (_what, entry) => {
    const { tools, ran } = wiping(true);
    const codeTool = createCodeTool({ tools, executor, toolApproval: { wipe: entry as never } });
    expect((await run(codeTool, CALL_WIPE)).result).toBe("wiped");
    expect(ran).toEqual(["wiped"]);
  });
});

describe("createCodeTool asks a toolApproval function about the parsed input", () => {
  function deploying() {
    const asked: unknown[] = [];
    const ran: unknown[] = [];
    const deploy = tool({
      description: "Deploy to an environment.",
      inputSchema: z.object({ env: z.string().trim().toLowerCase() }),
      execute: async (input: { env: string }) => {
        ran.push(input);
        return "deployed";
      },
    });
    const codeTool = createCodeTool({
      tools: { deploy },
      executor,
      toolApproval: {
        deploy: (input: { env: string }) => {
          asked.push(input);
          return input.env === "production" ? "user-approval" : undefined;
        },
      },
    });
    const call = (input: unknown) =>
      run(
        codeTool,
        `async () => { try { return await codemode.deploy(${JSON.stringify(input)}); } catch (error) { return String(error.message); } }`,
      );
    return { call, asked, ran };
  }

  it("an input the schema turns into one the rule gates fails without running", async () => {
    const { call, asked, ran } = deploying();
    expect((await call({ env: " Production " })).result).toMatch(
      /deploy needs a person's approval/,
    );
    expect(asked).toEqual([{ env: "production" }]);
    expect(ran).toEqual([]);
  });

  it("a call the rule clears runs with the value it cleared", async () => {
    const { call, asked, ran } = deploying();
    expect((await call({ env: " Staging " })).result).toBe("deployed");
    expect(asked).toEqual([{ env: "staging" }]);
    expect(ran).toEqual([{ env: "staging" }]);
  });

  it("an input the schema refuses fails as invalid, unasked and unrun", async () => {
    const { call, asked, ran } = deploying();
    expect((await call({ env: 42 })).result).toMatch(/Invalid input for codemode\.deploy/);
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
  });
});

describe("createBrowserCodeTool leaves out every tool whose needsApproval is truthy", () => {
  function pageTools(needsApproval: unknown) {
    const ran: string[] = [];
    const tools = {
      wipe: {
        description: "Wipe the page's data",
        inputSchema: { type: "object", properties: {} },
        needsApproval: needsApproval as boolean,
        execute: async () => {
          ran.push("wiped");
          return "wiped";
        },
      },
    };
    return { tools, ran };
  }

  it.each(TRUTHY)("%s: omitted, and nothing runs", async (_what, needsApproval) => {
    const { tools, ran } = pageTools(needsApproval);
    const codeTool = createBrowserCodeTool({ tools, executor });
    expect(codeTool.omitted).toEqual(["wipe"]);
    expect(codeTool.description).not.toContain("wipe");
    const output = await codeTool.execute({ code: CALL_WIPE });
    expect(output.result).not.toBe("wiped");
    expect(ran).toEqual([]);
  });

  it.each(FALSY)("%s: kept, and it runs", async (_what, needsApproval) => {
    const { tools, ran } = pageTools(needsApproval);
    const codeTool = createBrowserCodeTool({ tools, executor });
    expect(codeTool.omitted).toEqual([]);
    expect((await codeTool.execute({ code: CALL_WIPE })).result).toBe("wiped");
    expect(ran).toEqual(["wiped"]);
  });
});
