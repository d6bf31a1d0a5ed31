// What the client of one request said it can do: the capabilities in the request's envelope
// (protocol 2026-07-28), or those of the session's `initialize` (the 2025 era).
import {
  CLIENT_CAPABILITIES_META_KEY,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

type Capabilities = Record<string, unknown> | undefined;

function capabilitiesOf(server: McpServer | undefined, context: ServerContext): Capabilities {
  const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared =
    envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server?.server.getClientCapabilities();
  return typeof declared === "object" && declared !== null
    ? (declared as Record<string, unknown>)
    : undefined;
}

/** whether the client answers form questions (a bare `elicitation: {}` means form) */
export function canElicit(server: McpServer | undefined, context: ServerContext): boolean {
  const elicitation = capabilitiesOf(server, context)?.elicitation;
  if (typeof elicitation !== "object" || elicitation === null) return false;
  const modes = elicitation as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

/** whether this request's client declared the Tasks extension (a 2026-07-28 request only) */
export function declaresTasks(context: ServerContext): boolean {
  const extensions = capabilitiesOf(undefined, context)?.extensions;
  return (
    typeof extensions === "object" &&
    extensions !== null &&
    typeof (extensions as Record<string, unknown>)[TASKS_EXTENSION] === "object"
  );
}
