// The first screen's starters: each prompt is played by the scenario it is meant for (the multi-step
// ones first), the help text lists them, and each runs through the real chat as a program.
import { describe, expect, it } from "vitest";
import { HELP_TEXT, matchScenario } from "../src/demo-scenarios.ts";
import { DEMO_SUGGESTIONS } from "../src/suggestions.ts";
import { approvalChat } from "./approval-chat.ts";

/** The scenario each starter is for, in order. */
const MEANT = [
  "tasks-for-products",
  "close-oldest-open-task",
  "note-cheapest-item",
  "project-report",
  "search-notes",
  "add-catalog-item",
];

describe("DEMO_SUGGESTIONS", () => {
  it("offers 5 to 6 starters, multi-step ones first, each with a one-line title and `shows`", () => {
    expect(DEMO_SUGGESTIONS.length).toBeGreaterThanOrEqual(5);
    expect(DEMO_SUGGESTIONS.length).toBeLessThanOrEqual(6);
    expect(new Set(DEMO_SUGGESTIONS.map((s) => s.title)).size).toBe(DEMO_SUGGESTIONS.length);
    for (const suggestion of DEMO_SUGGESTIONS) {
      for (const text of [suggestion.title, suggestion.prompt, suggestion.shows]) {
        expect(text.trim()).toBe(text);
        expect(text).not.toMatch(/\n/);
        expect(text.length).toBeGreaterThan(0);
      }
      expect(suggestion.shows.length).toBeLessThanOrEqual(120);
    }
  });

  it("matches each prompt to its scenario", () => {
    expect(DEMO_SUGGESTIONS.map((s) => matchScenario(s.prompt).name)).toEqual(MEANT);
  });

  it("lists every starter in the help text", () => {
    for (const suggestion of DEMO_SUGGESTIONS) {
      expect(HELP_TEXT).toContain(`- "${suggestion.prompt}": ${suggestion.shows}`);
    }
  });

  it.each(DEMO_SUGGESTIONS.map((s) => [s.title, s.prompt]))(
    "%s runs as one program in the chat",
    async (_title, prompt) => {
      const chat = approvalChat();
      const reply = await chat.say(prompt);
      expect(reply.codes).toHaveLength(1);
      expect(reply.text).not.toMatch(/can't|failed/);
      // a write that needs approval asks; anything else answers from the completed run
      expect(reply.requests.length > 0 || reply.outputs.length === 1).toBe(true);
    },
  );
});
