// The durable `codemode` tool in TanStack AI's format: a server tool that runs the model's code
// through a Code Mode runtime, with the runtime's own description and `{ code }` input schema.
import { type CodeModeInput, CodemodeError, type CodemodeRuntime } from "@codemode/core";
import { toolDefinition } from "@tanstack/ai";
import { type CodemodeToolOutput, toolOutput } from "./tool-output.ts";

/** The tool's name unless `name` says otherwise. */
export const CODEMODE_TOOL_NAME = "codemode";

export interface CodemodeToolOptions<TName extends string = typeof CODEMODE_TOOL_NAME> {
  /** the tool's name; default "codemode" (give `codemodeApprovals` the same `toolName`) */
  name?: TName;
  /** replaces the runtime's description (the connectors' declarations) */
  description?: string;
}

/**
 * The `codemode` tool for TanStack AI's `chat({ tools })`: a server tool, input `{ code }`, whose
 * `execute` runs the code with `runtime.execute` and returns the `CodeModeOutput` as plain JSON
 * (`completed`, `error`, or `paused` with the calls that wait for a person). Every failure of the
 * code is data, never a thrown error. The description follows the runtime's (an MCP connector
 * completes it once it has listed its tools: await `runtime.ready()` before the first request).
 *
 * A paused run is not a TanStack `needsApproval` tool: TanStack asks before a tool runs, while a
 * run learns that it needs a person only when its code reaches such a call. Add
 * `codemodeApprovals(runtime)` to `chat({ middleware })` to turn a paused run into a TanStack
 * interrupt that the person resolves; without it the run waits for `runtime.approve`.
 */
export function codemodeTool<TName extends string = typeof CODEMODE_TOOL_NAME>(
  runtime: CodemodeRuntime,
  options: CodemodeToolOptions<TName> = {},
) {
  if (typeof runtime?.execute !== "function" || typeof runtime.tool !== "function") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "codemodeTool needs a Code Mode runtime (createCodemodeRuntime).",
    );
  }
  const name = (options.name ?? CODEMODE_TOOL_NAME) as TName;
  if (typeof name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `codemodeTool: the name "${String(name).slice(0, 100)}" may only use 1 to 64 letters, digits, "_" and "-".`,
    );
  }
  const source = runtime.tool(options.description ? { description: options.description } : {});
  const tool = toolDefinition({
    name,
    description: source.description,
    inputSchema: source.inputSchema,
  }).server(
    // TanStack validated the input with the schema's `validate`: it is `{ code: string }`
    async (input): Promise<CodemodeToolOutput> =>
      toolOutput(await runtime.execute({ code: (input as CodeModeInput).code })),
  );
  // read when chat() starts, so a description that completes later (MCP) is the one the model sees
  Object.defineProperty(tool, "description", {
    get: () => source.description,
    enumerable: true,
    configurable: true,
  });
  return tool;
}
