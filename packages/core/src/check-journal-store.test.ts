import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { checkJournal, checkJournalStore } from "./check-journal-store.ts";
import { CodemodeError } from "./codemode-error.ts";
import type { Journal, JournalStore } from "./journal-store.ts";
import { memoryStore } from "./memory-store.ts";
import { sqliteStore } from "./sql-store/sqlite-store.ts";

/** What `check` throws: an `INVALID_CONFIG` error, as its message. */
function refusal(check: () => void): string {
  try {
    check();
  } catch (error) {
    expect(CodemodeError.isInstance(error)).toBe(true);
    expect((error as CodemodeError).code).toBe("INVALID_CONFIG");
    return (error as CodemodeError).message;
  }
  throw new Error("the check passed");
}

/** A journal as an object of its own (the memory store's methods are on its prototype). */
function ownJournal(): Record<string, unknown> {
  const journal = memoryStore().journal("default");
  const copy: Record<string, unknown> = { specificationVersion: journal.specificationVersion };
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(journal))) {
    if (name !== "constructor") copy[name] = (journal as unknown as Record<string, unknown>)[name];
  }
  return copy;
}

describe("checkJournalStore", () => {
  it("passes the built-in stores and a store that wraps one", () => {
    expect(() => checkJournalStore(sqliteStore(new Database(":memory:")))).not.toThrow();
    const store = memoryStore();
    expect(() => checkJournalStore(store)).not.toThrow();
    const wrapped: JournalStore = {
      specificationVersion: "v1",
      journal: (name) => store.journal(name),
      ...(store.local ? { local: store.local } : {}),
    };
    expect(() => checkJournalStore(wrapped)).not.toThrow();
  });

  it("refuses a store without a version, saying which version to declare", () => {
    const message = refusal(() => checkJournalStore({ journal: () => ({}) }));
    expect(message).toContain("no specificationVersion");
    expect(message).toContain('specificationVersion: "v1"');
  });

  it("refuses a store of another version, naming both", () => {
    const message = refusal(() =>
      checkJournalStore({ specificationVersion: "v2", journal: () => ({}) }),
    );
    expect(message).toContain('version "v2"');
    expect(message).toContain('knows "v1"');
  });

  it("refuses what is not a store: no object, no journal method, a local not made by createStoreLocal", () => {
    expect(refusal(() => checkJournalStore(undefined))).toContain("must be an object");
    expect(refusal(() => checkJournalStore("sqlite"))).toContain("must be an object");
    expect(refusal(() => checkJournalStore({ specificationVersion: "v1" }))).toContain(
      "no journal(name) method",
    );
    expect(
      refusal(() =>
        checkJournalStore({
          specificationVersion: "v1",
          journal: () => ({}),
          local: { live: {}, asks: {} },
        }),
      ),
    ).toContain("local must be made by createStoreLocal()");
  });
});

describe("checkJournal", () => {
  it("passes the built-in journals and a journal whose methods are its own", () => {
    expect(() => checkJournal(memoryStore().journal("default"))).not.toThrow();
    expect(() =>
      checkJournal(sqliteStore(new Database(":memory:")).journal("default")),
    ).not.toThrow();
    expect(() => checkJournal(ownJournal())).not.toThrow();
  });

  it("refuses a journal without a version or of another one", () => {
    const { specificationVersion: _version, ...unversioned } = ownJournal();
    expect(refusal(() => checkJournal(unversioned))).toContain("no specificationVersion");
    expect(refusal(() => checkJournal({ ...ownJournal(), specificationVersion: "v0" }))).toContain(
      'version "v0"',
    );
  });

  it("names every required method a journal lacks", () => {
    const { listLapsed: _a, putEntry: _b, applyEntry: _c, ...older } = ownJournal();
    const message = refusal(() => checkJournal(older));
    expect(message).toContain("lacks methods");
    expect(message).toContain("listLapsed, putEntry, applyEntry");
    const { deleteSnippet: _d, ...one } = ownJournal();
    expect(refusal(() => checkJournal(one))).toContain(
      'lacks a method of the JournalStore contract "v1": deleteSnippet.',
    );
  });

  it("refuses what is not a journal", () => {
    expect(refusal(() => checkJournal(null))).toContain("must return an object");
    const notAMethod: Partial<Record<keyof Journal, unknown>> = { ...ownJournal(), getEntry: 1 };
    expect(refusal(() => checkJournal(notAMethod))).toContain("getEntry");
  });
});
