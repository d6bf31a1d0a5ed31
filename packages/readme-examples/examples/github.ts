// "./github" of the README examples: the application's GitHub client and a connector over it.
import { functionConnector } from "codemode";
import { z } from "zod";

interface Issue {
  number: number;
  labels: string[];
}

/** The host's own code: the sandbox's input arrives as `unknown` and is checked here. */
export async function fetchIssues(input: unknown): Promise<Issue[]> {
  const { repo } = z.object({ repo: z.string(), state: z.string().optional() }).parse(input);
  return repo ? [{ number: 12, labels: ["bug"] }] : [];
}

export const github = functionConnector({
  name: "github",
  methods: {
    list_issues: {
      description: "List the issues of a repository.",
      inputSchema: z.object({ repo: z.string(), state: z.string().optional() }),
      execute: (input) => fetchIssues(input),
    },
  },
});
