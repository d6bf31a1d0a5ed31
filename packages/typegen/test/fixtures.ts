// Test and benchmark support: the committed real catalogs (fixtures/) as connector definitions.
// The OpenAPI reading here is the minimum the typegen tests need (local `$ref`s, path- and
// operation-level parameters, JSON bodies, 2xx JSON responses); the real connector lives in
// @codemode/connector-openapi.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ConnectorDefinition, JsonSchemaObject, MethodDefinition } from "../src/index.ts";
import { resolvePointer } from "../src/json-schema.ts";

const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));

export const MCP_FIXTURES = [
  "everything",
  "memory",
  "filesystem",
  "playwright",
  "sequential-thinking",
] as const;
export const OPENAPI_FIXTURES = ["github", "stripe"] as const;

type Json = Record<string, unknown>;

function readJson(path: string): Json {
  return JSON.parse(readFileSync(`${fixtures}${path}`, "utf8")) as Json;
}

interface McpTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: { destructiveHint?: boolean; readOnlyHint?: boolean };
}

/** A captured MCP `tools/list` as a connector. */
export function mcpConnector(
  name: (typeof MCP_FIXTURES)[number],
): ConnectorDefinition & { tools: McpTool[] } {
  const file = readJson(`mcp/${name}.json`) as { source: string; tools: McpTool[] };
  return {
    name: name.replace(/-/g, "_"),
    instructions: `The ${file.source} MCP server.`,
    tools: file.tools,
    methods: file.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      requiresApproval:
        tool.annotations?.readOnlyHint !== true && tool.annotations?.destructiveHint === true,
    })),
  };
}

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function deref(document: Json, value: unknown): Json | undefined {
  let node = value as Json | undefined;
  for (let hops = 0; node && typeof node.$ref === "string" && hops < 10; hops++) {
    node = resolvePointer(document, node.$ref) as Json | undefined;
  }
  return node;
}

function jsonContent(document: Json, holder: unknown): unknown {
  const content = deref(document, holder)?.content as
    | Record<string, { schema?: unknown }>
    | undefined;
  if (!content) return undefined;
  const type = Object.keys(content).find((key) => /json/.test(key)) ?? Object.keys(content)[0];
  return type ? content[type]?.schema : undefined;
}

export interface OpenApiOperation {
  method: string;
  path: string;
  definition: MethodDefinition;
}

/** Every operation of an OpenAPI 3.x document as a method (input: parameters + `body`). */
export function openApiOperations(document: Json): OpenApiOperation[] {
  const operations: OpenApiOperation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      const parameters = [
        ...((item.parameters as unknown[]) ?? []),
        ...((operation.parameters as unknown[]) ?? []),
      ];
      for (const raw of parameters) {
        const parameter = deref(document, raw);
        if (!parameter || typeof parameter.name !== "string") continue;
        const schema = { ...((parameter.schema as Json) ?? {}) } as JsonSchemaObject;
        if (typeof parameter.description === "string" && !schema.description)
          schema.description = parameter.description;
        properties[parameter.name] = schema;
        if (parameter.required === true) required.push(parameter.name);
      }
      const body = jsonContent(document, operation.requestBody);
      if (body !== undefined) {
        properties.body = body;
        if (deref(document, operation.requestBody)?.required === true) required.push("body");
      }
      const responses = (operation.responses as Json | undefined) ?? {};
      const success = Object.keys(responses).find((status) => /^2/.test(status));
      const output = success ? jsonContent(document, responses[success]) : undefined;
      const summary = typeof operation.summary === "string" ? operation.summary : "";
      const description = typeof operation.description === "string" ? operation.description : "";
      operations.push({
        method,
        path,
        definition: {
          name:
            typeof operation.operationId === "string" ? operation.operationId : `${method} ${path}`,
          description:
            [summary, description].filter(Boolean).join("\n\n") ||
            `${method.toUpperCase()} ${path}`,
          inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) },
          ...(output !== undefined ? { outputSchema: output } : {}),
          requiresApproval: !["get", "head", "options"].includes(method),
          keywords: [method, path, ...((operation.tags as string[] | undefined) ?? [])],
        },
      });
    }
  }
  return operations;
}

/** A committed OpenAPI document as a connector whose schemas resolve `$ref`s against it. */
export function openApiConnector(
  name: (typeof OPENAPI_FIXTURES)[number],
): ConnectorDefinition & { document: Json } {
  const document = readJson(`openapi/${name}.json`);
  const info = document.info as { title?: string; description?: string };
  return {
    name,
    instructions: info.title ?? name,
    document,
    schemaRoot: document,
    methods: openApiOperations(document).map((operation) => operation.definition),
  };
}
