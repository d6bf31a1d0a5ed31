import { firstSentence } from "./jsdoc.ts";

/** What the tool description needs to know of a connector. */
export interface DescribedConnector {
  /** the sandbox identifier */
  name: string;
  instructions?: string;
}

const INSTRUCTION_LENGTH = 160;

function summary(instructions: string | undefined): string {
  const line = firstSentence(instructions?.split(/\r?\n/)[0], INSTRUCTION_LENGTH);
  return line ? `: ${line}` : "";
}

/**
 * The description of the `codemode` tool: how to write the program, the connector namespaces with
 * one line each (never their schemas, which the model discovers in the sandbox), the discovery
 * workflow and the rules that make pausing and replay safe. The same configuration always gives the
 * same bytes, so a provider's prompt cache keeps it.
 */
export function createToolDescription(connectors: readonly DescribedConnector[]): string {
  const namespaces = connectors.map(
    (connector) => `- ${connector.name}${summary(connector.instructions)}`,
  );
  return `Run JavaScript in a sandbox to act through the APIs below. Write one async arrow function; its return value (JSON-like) is the result and console.log output comes back as logs:
async () => { const found = await codemode.search("open an issue"); return found.results; }

Globals (there is no fetch, require, process, file system or network besides these):
${namespaces.join("\n")}
- codemode: search(query) ranks methods and saved snippets; describe(path) gives the TypeScript types of a connector, a method or a snippet; step(name, fn) runs fn once and records its value; run(snippet, input?) runs a saved snippet.

Workflow: do not guess method names or fields. Search and describe first (one run can do both and return the types), then write the program against those types. Each method takes one object argument and returns a Promise.

Rules:
- Some calls need a person's approval (@approval in their types). The run waits for the person's decision, and this tool's result is then the run's real outcome (its result, or the rejection). A result with status "paused" says what waits: do what its "next" says if it has one (it may ask you to repeat the call), otherwise tell the user what waits; never issue the same code again on your own.
- A resumed run replays the recorded results of earlier calls. Date, Math.random(), crypto and the order in which results of calls made at once arrive are the same on every pass; wrap any other changing value in codemode.step("name", () => value).
- A failed call throws an Error you can catch.`;
}
