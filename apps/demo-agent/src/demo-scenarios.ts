// The scripted scenarios the offline demo model plays, keyed on the user's words: the program it
// writes for the `codemode` tool, and the short answer it gives once it has seen the tool's result.
// Every scenario has a precise pattern; a request none of them reads completely gets a plain "I
// can't do that" with what it can do, and no program: nothing runs on words it did not understand.
import { matchCatalogScenario } from "./catalog-scenarios.ts";
import { matchMultiStepScenario } from "./multi-step-scenarios.ts";
import { matchNotesScenario } from "./notes-scenarios.ts";
import { MAX_REQUEST_LENGTH, tidyRequest, unplaceableIn } from "./request-text.ts";
import type { Scenario } from "./scenario.ts";
import { DEMO_SUGGESTIONS } from "./suggestions.ts";
import { matchTrackerScenario } from "./tracker-scenarios.ts";

export const HELP_TEXT = [
  "I am the offline demo model: I play a few scripted scenarios so the demo works without an AI provider. I act only on requests I can read completely; anything else I say I cannot do, and change nothing.",
  "Try one of these (the first four are one program doing many calls):",
  ...DEMO_SUGGESTIONS.map((s) => `- "${s.prompt}": ${s.shows}`),
  "Or one step at a time:",
  '- "list my tasks" (also "list my open tasks", "list my tasks in mobile")',
  '- "summarize projects": a call per project, aggregated',
  '- "show stats": counts by status and project',
  '- "create a task Write release notes in mobile": needs your approval, so the run pauses',
  '- "mark task 2 as done": a status change, also approval-gated',
  '- "add a note Deploy freeze: no deploys on Fridays": an MCP tool that runs at once',
  '- "delete note 3": a destructive MCP tool, so the run pauses for your approval',
  '- "show the catalog" (or "show the products under $20"): the REST API through its OpenAPI document',
  'Put a title or a note in quotes to have it taken word for word: create a task "Check all links" in website.',
  "Configure Workers AI or an OpenAI-compatible endpoint to talk to a real model (see the README).",
].join("\n");

const HELP =
  /^(?:|help|\?|hi|hello|hey|hello there|hi there|good (?:morning|afternoon|evening)|what can you do|what do you do|who are you|what are you|examples?|menu|start)$/i;

const help = (): Scenario => ({ name: "help", answer: () => HELP_TEXT });

const shown = (words: string) => (words.length > 80 ? `${words.slice(0, 80)}…` : words);

/** The refusal: what it could not do and why, that nothing ran, and what it can do instead. */
export function cannot(words: string, why?: string): Scenario {
  const reason = why ? `: ${why}` : "";
  return {
    name: "cannot",
    answer: () =>
      [
        `I can't do that. I am the offline demo model, a script that plays a fixed set of requests, and I could not read "${shown(words)}" as one of them${reason}. I ran nothing and changed nothing.`,
        "What I can do, for example:",
        ...DEMO_SUGGESTIONS.map((s) => `- "${s.prompt}"`),
        'Say "help" for the whole list, or configure an AI provider to talk to a real model.',
      ].join("\n"),
  };
}

/** The scenario the user's words ask for; a greeting or "help" gets the help text. */
export function matchScenario(text: string): Scenario {
  if (text.length > MAX_REQUEST_LENGTH) {
    return cannot(text, `it is longer than the ${MAX_REQUEST_LENGTH} characters I read`);
  }
  const words = tidyRequest(text);
  // "hi" and "hey" are politeness before a request, and a greeting on their own
  const greeting = text.trim().replace(/[.!?\s]+$/, "");
  if (HELP.test(words) || HELP.test(greeting)) return help();
  const matched =
    matchMultiStepScenario(words) ??
    matchTrackerScenario(words) ??
    matchNotesScenario(words) ??
    matchCatalogScenario(words);
  if (matched && !("cannot" in matched)) return matched;
  if (matched) return cannot(words, matched.cannot);
  const unplaceable = unplaceableIn(words);
  return cannot(
    words,
    unplaceable.length > 0
      ? `it holds ${unplaceable.join(" and ")}, beyond the patterns I know`
      : undefined,
  );
}
