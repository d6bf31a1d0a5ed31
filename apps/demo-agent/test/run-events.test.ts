// The runs' events in SQLite: bounded per run and in the number of runs kept.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { MAX_EVENTS_PER_RUN, MAX_RUNS, RunEvents } from "../src/run-events.ts";
import { sqlOver } from "./sqlite-adapter.ts";

const start = (executionId: string, at: number) =>
  ({ type: "pass-start", executionId, at, recorded: 0 }) as const;

describe("RunEvents", () => {
  it("keeps a run's events in order, at most MAX_EVENTS_PER_RUN of them", () => {
    const events = new RunEvents(sqlOver(new Database(":memory:")));
    for (let at = 0; at < MAX_EVENTS_PER_RUN + 5; at++) events.append(start("exec_a", at));
    const kept = events.list("exec_a");
    expect(kept).toHaveLength(MAX_EVENTS_PER_RUN);
    expect(kept.slice(0, 3).map((event) => ("at" in event ? event.at : -1))).toEqual([0, 1, 2]);
  });

  it("keeps the events of the newest MAX_RUNS runs only", () => {
    const events = new RunEvents(sqlOver(new Database(":memory:")));
    for (let run = 0; run <= MAX_RUNS; run++) events.append(start(`exec_${run}`, run));
    expect(events.list("exec_0")).toEqual([]);
    expect(events.list("exec_1")).toHaveLength(1);
    expect(events.list(`exec_${MAX_RUNS}`)).toHaveLength(1);
    // a newer event of an old run makes it one of the newest again
    events.append(start("exec_1", 1_000));
    events.append(start("exec_new", 1_001));
    expect(events.list("exec_1")).toHaveLength(2);
    expect(events.list("exec_2")).toEqual([]);
  });
});
