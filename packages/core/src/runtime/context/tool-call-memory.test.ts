import { describe, expect, it } from "vitest";
import { MEMORY, Recent, toolCallMemory } from "./tool-call-memory.ts";

describe("toolCallMemory", () => {
  it("is new for every runtime", () => {
    const one = toolCallMemory();
    const two = toolCallMemory();
    one.firstPasses.set("call_1", { status: "completed", executionId: "exec_1", result: 1 });
    expect(two.firstPasses.get("call_1")).toBeUndefined();
    expect(one.denials).not.toBe(two.denials);
  });

  it("keeps the most recently set keys, and hands a value out once", () => {
    const recent = new Recent<number>();
    for (let index = 0; index <= MEMORY; index++) recent.set(`key_${index}`, index);
    expect(recent.get("key_0")).toBeUndefined();
    expect(recent.get("key_1")).toBe(1);
    // set again: now the newest, so it outlives the ones set after it first
    recent.set("key_1", 1);
    recent.set("key_new", -1);
    expect(recent.get("key_1")).toBe(1);
    expect(recent.get("key_2")).toBeUndefined();
    expect(recent.take("key_1")).toBe(1);
    expect(recent.take("key_1")).toBeUndefined();
  });
});
