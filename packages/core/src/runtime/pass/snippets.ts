import { type Catalog, type DescribeOutput, normalizeCode } from "@codemode/typegen";
import { CodemodeError } from "../../codemode-error.ts";
import { checkText, messageOf } from "../../invariants.ts";
import type { Journal } from "../../journal-store.ts";
import { MAX_SNIPPET_NAME_LENGTH, type SnippetReply } from "../../sandbox-protocol.ts";
import type { Configuration } from "../context/configuration.ts";
import type { RunContext } from "../context/run-context.ts";

const SNIPPET_NAME = /^[A-Za-z0-9_.-]+$/;

/** The catalog with the journal's snippets in it, for search and describe. */
export async function snippetCatalog(journal: Journal, config: Configuration): Promise<Catalog> {
  return config.catalog.withSnippets(
    (await journal.listSnippets()).map((snippet) => ({
      name: snippet.name,
      ...(snippet.description ? { description: snippet.description } : {}),
      code: snippet.code,
      ...(snippet.inputSchema ? { inputSchema: JSON.parse(snippet.inputSchema) as unknown } : {}),
    })),
  );
}

/**
 * `codemode.describe(target)` and `runtime.describe`: the catalog's answer, or, for a namespace
 * whose connector could not be loaded now, why (a model that looks it up learns the reason, not
 * only that nothing has that name).
 */
export async function describeTarget(
  journal: Journal,
  config: Configuration,
  target: string,
): Promise<DescribeOutput> {
  const namespace = target.split(".")[0] ?? "";
  const reason = config.unavailable.get(namespace);
  if (reason !== undefined) {
    const why = `The connector "${namespace}" could not be loaded now (${reason}): it has no methods until it is listed again, which happens by itself. The other namespaces work.`;
    return {
      path: target,
      description: why,
      types: `// ${why}\n`,
      kind: target.includes(".") ? "method" : "connector",
    };
  }
  return (await snippetCatalog(journal, config)).describe(target);
}

/**
 * `codemode.run(name)`, host half: the snippet's normalized code; or, when a connector it recorded
 * is not configured now, why (`unavailable`: the sandbox resolves `{ error }` with it, seed 000's
 * "codemode.run resolves to an object with an error property"); or why it cannot run at all.
 */
export async function snippetFor(
  journal: Journal,
  config: Configuration,
  input: unknown,
): Promise<SnippetReply> {
  const name = checkText(
    (input as { name?: unknown } | null)?.name,
    "A snippet name",
    MAX_SNIPPET_NAME_LENGTH,
  );
  const snippet = SNIPPET_NAME.test(name) ? await journal.getSnippet(name) : undefined;
  if (!snippet) {
    return { error: `No snippet is named "${name}". Use codemode.search() to find snippets.` };
  }
  const absent = snippet.connectors.filter((connector) => !config.connectors.has(connector));
  if (absent.length) {
    return {
      unavailable: `Snippet "${name}" needs connectors that are not configured: ${absent.join(", ")}.`,
    };
  }
  try {
    return { code: normalizeCode(snippet.code) };
  } catch (error) {
    return { error: `Snippet "${name}" does not parse: ${messageOf(error)}` };
  }
}

/** `runtime.saveSnippet`: the code of a run, under a name the model can find. */
export async function saveSnippet(
  context: RunContext,
  name: string,
  options: { executionId: string; description?: string; inputSchema?: unknown },
): Promise<void> {
  if (
    typeof name !== "string" ||
    !SNIPPET_NAME.test(name) ||
    name.length > MAX_SNIPPET_NAME_LENGTH
  ) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `Snippet name "${String(name).slice(0, 100)}" may only use letters, digits, "_", "." and "-" (at most ${MAX_SNIPPET_NAME_LENGTH} characters).`,
    );
  }
  const execution = await context.journal.getExecution(options.executionId);
  if (!execution) {
    throw new CodemodeError(
      "NOT_FOUND",
      `No execution has the id "${String(options.executionId).slice(0, 100)}".`,
    );
  }
  let inputSchema: string | undefined;
  try {
    inputSchema =
      options.inputSchema === undefined ? undefined : JSON.stringify(options.inputSchema);
  } catch (error) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `The snippet's inputSchema must be a JSON Schema as plain JSON: ${messageOf(error)}`,
    );
  }
  await context.journal.putSnippet({
    name,
    ...(options.description ? { description: options.description } : {}),
    code: execution.code,
    ...(inputSchema !== undefined ? { inputSchema } : {}),
    connectors: execution.connectors,
    savedAt: context.now(),
  });
}
