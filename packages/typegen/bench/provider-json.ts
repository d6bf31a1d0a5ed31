// What a provider is sent for a catalog: each tool's name, description and a self-contained JSON
// Schema (local `$ref`s inlined or bundled into `$defs`, whichever is smaller). Shared by this
// package's bench and the side-by-side bench in packages/bench.
import { type ConnectorDefinition, toIdentifier, toJsonSchema } from "../src/index.ts";
import { resolvePointer } from "../src/json-schema.ts";

class TooLarge extends Error {}

/** Local `$ref`s inlined, a cycle cut to `{}`; throws `TooLarge` past a budget of nodes. */
function inline(
  schema: unknown,
  root: unknown,
  budget: { nodes: number },
  seen: string[] = [],
): unknown {
  if (--budget.nodes < 0) throw new TooLarge();
  if (Array.isArray(schema)) return schema.map((item) => inline(item, root, budget, seen));
  if (typeof schema !== "object" || schema === null) return schema;
  const record = schema as Record<string, unknown>;
  if (typeof record.$ref === "string" && record.$ref.startsWith("#")) {
    if (seen.includes(record.$ref)) return {};
    return inline(resolvePointer(root, record.$ref), root, budget, [...seen, record.$ref]);
  }
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key !== "$defs" && key !== "definitions") copy[key] = inline(value, root, budget, seen);
  }
  return copy;
}

/** The schema with every definition it reaches moved into its own `$defs` (refs rewritten). */
function bundle(schema: unknown, root: unknown): unknown {
  const defs: Record<string, unknown> = {};
  const names = new Map<string, string>();
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== "object" || node === null) return node;
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === "string" && record.$ref.startsWith("#/")) {
      let name = names.get(record.$ref);
      if (!name) {
        name = record.$ref.split("/").pop() as string;
        names.set(record.$ref, name);
        defs[name] = {};
        defs[name] = rewrite(resolvePointer(root, record.$ref));
      }
      return { $ref: `#/$defs/${name}` };
    }
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (key !== "$defs" && key !== "definitions") copy[key] = rewrite(value);
    }
    return copy;
  };
  const rewritten = rewrite(schema) as Record<string, unknown>;
  return Object.keys(defs).length ? { ...rewritten, $defs: defs } : rewritten;
}

/** What a provider is sent for a schema: self-contained, inlined or bundled, whichever is smaller. */
export function selfContained(schema: unknown, root: unknown): unknown {
  const bundled = bundle(schema, root);
  try {
    const inlined = inline(schema, root, { nodes: 20_000 });
    return JSON.stringify(inlined).length <= JSON.stringify(bundled).length ? inlined : bundled;
  } catch (error) {
    if (error instanceof TooLarge) return bundled;
    throw error;
  }
}

/** The tool list a provider receives: name, description and a self-contained input schema. */
export function providerJson(connector: ConnectorDefinition, withOutput: boolean): string {
  const tools = connector.methods.map((method) => {
    const input = toJsonSchema(method.inputSchema);
    const output = toJsonSchema(method.outputSchema, "output");
    return {
      name: toIdentifier(method.name),
      description: method.description ?? "",
      input_schema: selfContained(input, connector.schemaRoot ?? input),
      ...(withOutput && output !== undefined
        ? { output_schema: selfContained(output, connector.schemaRoot ?? output) }
        : {}),
    };
  });
  return JSON.stringify(tools);
}
