import type { ConnectorDeclarations, DeclaredMethod } from "./declarations.ts";
import { firstSentence } from "./jsdoc.ts";
import { cutAt, METADATA_LIMITS } from "./metadata-limits.ts";

/** characters of a method's first sentence in the list of a connector too large to declare */
const SUMMARY_LENGTH = 120;
/** room kept for the closing line of an answer */
const CLOSING_ROOM = 200;
/** what TypeScript ends a line (and so a `//` comment) at */
const LINE_TERMINATOR = /\r\n|[\n\r\u2028\u2029]/;

/**
 * What `describe(connector)` shows: all its declarations, or, when they are longer than
 * `METADATA_LIMITS.describeLength`, the list of its methods as comments (still a file TypeScript
 * accepts), each with its first sentence, as many as fit; the rest are counted.
 */
export function describedConnectorTypes(connector: ConnectorDeclarations): string {
  const all = connector.all();
  const limit = METADATA_LIMITS.describeLength;
  if (all.length <= limit) return all;
  const example = connector.methods[0]?.path ?? `${connector.name}.method`;
  const lines = [
    `// The declarations of "${connector.name}" take ${all.length} characters, more than one answer shows (${limit}).`,
    `// Describe one method for its types, such as codemode.describe(${JSON.stringify(example)}). Its ${connector.methods.length} methods:`,
  ];
  let used = lines.join("\n").length;
  let shown = 0;
  for (const method of connector.methods) {
    const summary = firstSentence(method.description, SUMMARY_LENGTH);
    const line = `// ${method.path}${method.requiresApproval ? " @approval" : ""}${summary ? `: ${summary}` : ""}`;
    if (used + line.length + 1 > limit - CLOSING_ROOM) break;
    lines.push(line);
    used += line.length + 1;
    shown += 1;
  }
  const left = connector.methods.length - shown;
  if (left > 0) {
    lines.push(`// … and ${left} more: find them with codemode.search("what you want to do").`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * What `describe(method)` shows: its declarations, or, when they are longer than
 * `METADATA_LIMITS.describeLength`, the method declared with an `unknown` input and output and the
 * first part of its declarations as comments (so the answer is still a file TypeScript accepts),
 * saying how much was left out.
 */
export function describedMethodTypes(
  connector: ConnectorDeclarations,
  method: DeclaredMethod,
): string {
  const types = connector.method(method.name);
  const limit = METADATA_LIMITS.describeLength;
  if (types.length <= limit) return types;
  const opening = [
    `// The declarations of "${method.path}" take ${types.length} characters, more than one answer shows (${limit}):`,
    "// the method is declared with its input and output unknown, and the first part of its declarations follows as comments.",
    `declare const ${connector.name}: { ${method.name}(input?: unknown): Promise<unknown> };`,
    "",
  ].join("\n");
  const room = limit - opening.length - CLOSING_ROOM;
  const lines: string[] = [];
  let used = 0;
  let shown = 0;
  for (const line of types.split(LINE_TERMINATOR)) {
    const kept = cutAt(line, Math.max(0, room - used - 4));
    lines.push(`// ${kept}`);
    used += kept.length + 4;
    shown += kept.length + 1;
    if (kept.length < line.length || used >= room) break;
  }
  return `${opening}${lines.join("\n")}\n// … cut here: ${Math.max(0, types.length - shown)} more characters of declarations.\n`;
}
