// What the page sends with every chat request: the schema of each tool it runs itself (the
// `codemode` tool made by createBrowserCodeTool). The Worker turns these into model tools without
// an `execute`, so each call goes back to the page. Shared by the page and the Worker.

export interface ClientToolSchema {
  name: string;
  description: string;
  /** JSON Schema of the tool's input */
  inputSchema: Record<string, unknown>;
}

/** The body the page's chat transport adds to each request, next to `messages`. */
export interface ClientToolsBody {
  clientTools: ClientToolSchema[];
}

const TOOL_NAME = /^[A-Za-z_][\w-]{0,63}$/;

/** The client tools of a request body, or a message saying what is wrong with them. */
export function readClientTools(value: unknown): ClientToolSchema[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return "clientTools must be an array.";
  const tools: ClientToolSchema[] = [];
  for (const item of value) {
    const { name, description, inputSchema } = (item ?? {}) as Partial<ClientToolSchema>;
    if (typeof name !== "string" || !TOOL_NAME.test(name)) {
      return "Each client tool needs a name of letters, digits, _ or - (at most 64).";
    }
    if (typeof description !== "string") return `The client tool ${name} needs a description.`;
    if (typeof inputSchema !== "object" || inputSchema === null || Array.isArray(inputSchema)) {
      return `The client tool ${name} needs an inputSchema object.`;
    }
    if (tools.some((tool) => tool.name === name)) return `The client tool ${name} is listed twice.`;
    tools.push({ name, description, inputSchema });
  }
  return tools;
}
