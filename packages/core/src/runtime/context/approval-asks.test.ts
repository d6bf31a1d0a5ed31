import { describe, expect, it } from "vitest";
import { createApprovalAsks } from "./approval-asks.ts";

describe("createApprovalAsks", () => {
  it("an ask is blind to calls made to wait while it is in flight, or still unreported when it came", () => {
    const asks = createApprovalAsks();
    const before = asks.waiting("run", 0);
    const ask = asks.ask("run");
    const during = asks.waiting("run", 1);
    expect([...ask.unseen].sort()).toEqual([0, 1]);
    before();
    during();
    ask.done();
    // once the passes have reported, a new ask sees their pauses
    expect([...asks.ask("run").unseen]).toEqual([]);
  });

  it("keeps runs and stores apart, and a seq waits until every pass that made it wait has reported", () => {
    const asks = createApprovalAsks();
    const first = asks.waiting("run", 3);
    const second = asks.waiting("run", 3);
    expect([...createApprovalAsks().ask("run").unseen]).toEqual([]);
    expect([...asks.ask("other").unseen]).toEqual([]);
    first();
    first();
    expect([...asks.ask("run").unseen]).toEqual([3]);
    second();
    expect([...asks.ask("run").unseen]).toEqual([]);
  });
});
