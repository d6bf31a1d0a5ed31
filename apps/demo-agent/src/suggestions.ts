// The starters the first screen offers: clickable prompts the offline demo model plays (each matches
// its scenario; a test holds them to it), the multi-step ones first.

/** A clickable starter: its label, the prompt it sends, and a line on what it demonstrates. */
export interface DemoSuggestion {
  title: string;
  prompt: string;
  shows: string;
}

export const DEMO_SUGGESTIONS: ReadonlyArray<DemoSuggestion> = [
  {
    title: "A task for every cheap product",
    prompt: "create a task for every product under $10",
    shows:
      "one program: reads the catalog, filters by price, loops creating tasks, pausing for your approval of each",
  },
  {
    title: "Close the oldest open task",
    prompt: "list my open tasks and close the oldest one",
    shows: "a filter and a pick in code, then one approval-gated status change",
  },
  {
    title: "Note the cheapest item",
    prompt: "add a note summarising the catalog's cheapest item",
    shows:
      "the REST catalog and the MCP notes server in one program; the note's text is the real result",
  },
  {
    title: "Report on each project",
    prompt: "report on each project: open tasks and notes that mention it",
    shows: "a loop over projects with tracker and notes calls in parallel, one combined answer",
  },
  {
    title: "Search notes and tasks",
    prompt: "search the notes for release",
    shows: "an MCP server and the tracker searched by one program",
  },
  {
    title: "Add a catalog item",
    prompt: "add a catalog item Blue mug for 12.50",
    shows:
      "a POST through the OpenAPI connector: the run pauses, and rolling it back deletes the item",
  },
];
