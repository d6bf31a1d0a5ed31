// The snippets group of the journal store suite: saved, replaced, listed by name and deleted.
import type { SnippetRecord } from "@codemode/core";
import { expect } from "vitest";
import type { StoreGroup } from "./store-group.ts";

/** The "snippets" group. */
export function storeSnippetsTests({ test, journal }: StoreGroup): void {
  test("saves, replaces, lists by name and deletes snippets", async () => {
    const store = await journal();
    const snippet: SnippetRecord = {
      name: "list-open-prs",
      description: "List open pull requests.",
      code: "async (input) => input",
      inputSchema: '{"type":"object"}',
      connectors: ["github"],
      savedAt: 7,
    };
    await store.putSnippet({ ...snippet, name: "b" });
    await store.putSnippet(snippet);
    await store.putSnippet({ ...snippet, code: "async () => 2" });
    expect(await store.getSnippet("list-open-prs")).toEqual({
      ...snippet,
      code: "async () => 2",
    });
    expect((await store.listSnippets()).map((item) => item.name)).toEqual(["b", "list-open-prs"]);
    expect(await store.deleteSnippet("b")).toBe(true);
    expect(await store.deleteSnippet("b")).toBe(false);
    expect(await store.getSnippet("b")).toBeUndefined();
  });
}
