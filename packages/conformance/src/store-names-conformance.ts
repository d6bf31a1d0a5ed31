// The names group of the journal store suite: runtimes of different names keep their runs and
// snippets apart in one store.
import { expect } from "vitest";
import type { StoreGroup } from "./store-group.ts";
import { execution } from "./store-records.ts";

/** The "names" group. */
export function storeNamesTests({ test, createStore }: StoreGroup): void {
  test("keeps runtimes of different names apart", async () => {
    const store = await createStore();
    const research = store.journal("research");
    const operations = store.journal("operations");
    const record = execution();
    await research.createExecution(record);
    await research.putSnippet({ name: "s", code: "1", connectors: [], savedAt: 1 });
    expect(await operations.getExecution(record.id)).toBeUndefined();
    expect(await operations.listExecutions()).toEqual([]);
    expect(await operations.listSnippets()).toEqual([]);
    await operations.createExecution({ ...record });
    expect(await operations.deleteExecution(record.id)).toBe(true);
    expect(await research.getExecution(record.id)).toEqual(record);
    expect(await store.journal("research").getExecution(record.id)).toEqual(record);
  });
}
