import type { JsonSchema } from "./json-schema.ts";

const MAX_EXAMPLE_LENGTH = 120;

function compactJson(value: unknown): string | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined || text.length > MAX_EXAMPLE_LENGTH ? undefined : text;
  } catch {
    return undefined;
  }
}

/** The JSDoc lines a schema's annotations and constraints become. */
export function schemaDocLines(
  schema: JsonSchema | undefined,
  options: { description?: boolean } = {},
): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const lines: string[] = [];
  const text = schema.description ?? schema.title;
  if (options.description !== false && typeof text === "string" && text.trim() !== "") {
    lines.push(...text.trim().split(/\r?\n/));
  }
  const tag = (name: string, value: unknown) => {
    if (value === undefined || value === null || value === false) return;
    if (value === true) lines.push(`@${name}`);
    else if (typeof value === "number" || typeof value === "string")
      lines.push(`@${name} ${value}`);
  };
  if (schema.default !== undefined) tag("default", compactJson(schema.default));
  if (typeof schema.exclusiveMinimum === "number") tag("exclusiveMinimum", schema.exclusiveMinimum);
  else tag(schema.exclusiveMinimum === true ? "exclusiveMinimum" : "minimum", schema.minimum);
  if (typeof schema.exclusiveMaximum === "number") tag("exclusiveMaximum", schema.exclusiveMaximum);
  else tag(schema.exclusiveMaximum === true ? "exclusiveMaximum" : "maximum", schema.maximum);
  tag("minLength", schema.minLength);
  tag("maxLength", schema.maxLength);
  tag("minItems", schema.minItems);
  tag("maxItems", schema.maxItems);
  tag("pattern", schema.pattern);
  tag("format", schema.format);
  tag("deprecated", schema.deprecated === true);
  const examples = Array.isArray(schema.examples) ? schema.examples.slice(0, 2) : [];
  if (schema.example !== undefined && examples.length === 0) examples.push(schema.example);
  for (const example of examples) tag("example", compactJson(example));
  return lines;
}

/** Renders JSDoc lines as a comment at `indent`, `*​/` escaped so it cannot end the comment early. */
export function formatJsDoc(lines: readonly string[], indent = ""): string {
  if (lines.length === 0) return "";
  const safe = lines.map((line) => line.replace(/\*\//g, "*\\/").trimEnd());
  if (safe.length === 1 && (safe[0] as string).length <= 100) return `${indent}/** ${safe[0]} */\n`;
  return `${indent}/**\n${safe.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)).join("\n")}\n${indent} */\n`;
}
