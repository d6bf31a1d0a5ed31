// POST /api/chat: the page sends its UI messages and the schemas of the tools it runs itself; the
// model answers as a UI message stream. A call of a client tool ends the step: the tool has no
// `execute` here, so the call goes back to the page, which runs it and sends the conversation again.
import type { LanguageModelV3, LanguageModelV4 } from "@ai-sdk/provider";
import {
  convertToModelMessages,
  jsonSchema,
  safeValidateUIMessages,
  stepCountIs,
  streamText,
  type ToolSet,
  tool,
} from "ai";
import { type ClientToolSchema, readClientTools } from "./client-tools.ts";

/** Model steps per request: a client tool call ends the step, so this bounds text-only chains. */
export const MAX_STEPS = 10;

export const SYSTEM_PROMPT = [
  "You are the assistant of a web page. You act in the user's browser by writing code: call the",
  "`codemode` tool with one async JavaScript arrow function that calls the page's tools, declared in",
  "the tool's description (`codemode.getPageInfo({})`, `codemode.addTodo({ text })`, …). The program",
  "runs in the page, in a sandbox; compose several calls in one program when you can, and return what",
  "you need. Answer briefly, from the tool's real result.",
].join(" ");

/** Model tools from the page's schemas, without `execute`: their calls go back to the page. */
export function toolsFromClientSchemas(schemas: ClientToolSchema[]): ToolSet {
  const tools: ToolSet = {};
  for (const schema of schemas) {
    tools[schema.name] = tool({
      description: schema.description,
      inputSchema: jsonSchema(schema.inputSchema),
    });
  }
  return tools;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

const badRequest = (error: string) => Response.json({ error }, { status: 400 });

export async function handleChat(
  request: Request,
  model: LanguageModelV3 | LanguageModelV4,
): Promise<Response> {
  let body: { messages?: unknown; clientTools?: unknown };
  try {
    body = (await request.json()) as typeof body;
  } catch {
    return badRequest("The body must be JSON: { messages, clientTools }.");
  }
  const clientTools = readClientTools(body?.clientTools);
  if (typeof clientTools === "string") return badRequest(clientTools);
  const validated = await safeValidateUIMessages({ messages: body?.messages });
  if (!validated.success) return badRequest(`messages: ${validated.error.message}`);
  let messages: Awaited<ReturnType<typeof convertToModelMessages>>;
  try {
    messages = await convertToModelMessages(validated.data);
  } catch (error) {
    return badRequest(`messages: ${errorText(error)}`);
  }
  const result = streamText({
    model,
    system: SYSTEM_PROMPT,
    messages,
    tools: toolsFromClientSchemas(clientTools),
    stopWhen: stepCountIs(MAX_STEPS),
  });
  return result.toUIMessageStreamResponse({ onError: errorText });
}
