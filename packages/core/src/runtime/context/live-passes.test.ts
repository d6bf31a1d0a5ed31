import { describe, expect, it } from "vitest";
import { cancellationOf } from "./cancellation.ts";
import { createLivePasses } from "./live-passes.ts";

describe("createLivePasses", () => {
  it("counts the passes of a run: it is live until every one has left", () => {
    const live = createLivePasses();
    live.add("exec_1");
    live.add("exec_1");
    live.delete("exec_1");
    expect(live.has("exec_1")).toBe(true);
    expect(createLivePasses().has("exec_1")).toBe(false);
    live.delete("exec_1");
    expect(live.has("exec_1")).toBe(false);
  });

  it("holds a ticket per pass until it leaves, and cancels those of a run being cancelled, late ones too", () => {
    const live = createLivePasses();
    const first = live.enter("exec_1");
    const other = live.enter("exec_2");
    expect(live.tickets("exec_1")).toEqual([first]);
    const cancellation = cancellationOf({ at: 0, source: "api" });
    const release = live.cancelling("exec_1", cancellation);
    expect(first.cancelled).toBe(cancellation);
    expect(other.cancelled).toBeUndefined();
    const late = live.enter("exec_1");
    expect(late.cancelled).toBe(cancellation);
    release();
    expect(live.enter("exec_1").cancelled).toBeUndefined();
    first.leave();
    late.leave();
    expect(live.tickets("exec_1")).toHaveLength(1);
  });
});
