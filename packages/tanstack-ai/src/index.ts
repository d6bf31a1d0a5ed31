export { CODEMODE_TOOL_NAME, type CodemodeToolOptions, codemodeTool } from "./codemode-tool.ts";
export { type CodemodeToolOutput, PAUSED_MESSAGE } from "./tool-output.ts";
