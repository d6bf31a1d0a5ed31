import { describe, expect, it } from "vitest";
import { testContext } from "../../test/run-context.ts";
import {
  bindToolCall,
  MAX_TOOL_CALL_ID_LENGTH,
  shownHandle,
  showOnce,
  toolCallKey,
  toolCallRun,
} from "./tool-call-runs.ts";

describe("tool-call runs", () => {
  it("keys a tool call by its id and its code, so another call's code never finds its run", async () => {
    const key = await toolCallKey("call_1", "async () => 1");
    expect(key).toMatch(/^call_[0-9a-f]{64}$/);
    expect(await toolCallKey("call_1", "async () => 1")).toBe(key);
    expect(await toolCallKey("call_1", "async () => 2")).not.toBe(key);
    // length-prefixed: no id and code share a key by where one ends
    expect(await toolCallKey("call_1a", "b")).not.toBe(await toolCallKey("call_1", "ab"));
    await expect(toolCallKey("", "x")).rejects.toMatchObject({ code: "INVALID_CONFIG" });
    await expect(toolCallKey("c".repeat(MAX_TOOL_CALL_ID_LENGTH + 1), "x")).rejects.toMatchObject({
      code: "TOO_LARGE",
    });
  });

  it("binds a tool call to one run (the first writer wins) and keeps what its request showed, once", async () => {
    const context = testContext([]);
    const key = await toolCallKey("call_1", "async () => 1");
    expect(await toolCallRun(context, "call_1", "async () => 1")).toEqual({
      key,
      binding: undefined,
      run: undefined,
    });
    const first = await bindToolCall(context, key, "exec_1");
    expect(first).toMatchObject({ key, executionId: "exec_1" });
    expect((await bindToolCall(context, key, "exec_2")).executionId).toBe("exec_1");
    // a new run's id when none is given
    const other = await bindToolCall(context, await toolCallKey("call_2", "x"));
    expect(other.executionId).toMatch(/^exec_\d{16}_[0-9a-f]+$/);

    const handle = {
      version: 1 as const,
      executionId: "exec_1",
      calls: [{ seq: 0, digest: "0".repeat(64) }],
    };
    expect(await showOnce(context, key, handle)).toEqual(handle);
    expect(
      await showOnce(context, key, { ...handle, calls: [{ seq: 1, digest: "1".repeat(64) }] }),
    ).toEqual(handle);
    const bound = await toolCallRun(context, "call_1", "async () => 1");
    expect(shownHandle(bound.binding)).toEqual(handle);
    // the run was never recorded: the binding alone
    expect(bound.run).toBeUndefined();
  });

  it("reads no handle from a binding that never asked, or whose record is not one of its run", () => {
    const binding = { key: "k", executionId: "exec_1", createdAt: 0 };
    expect(shownHandle(undefined)).toBeUndefined();
    expect(shownHandle(binding)).toBeUndefined();
    expect(shownHandle({ ...binding, shown: "{not json" })).toBeUndefined();
    const other = {
      version: 1,
      executionId: "exec_2",
      calls: [{ seq: 0, digest: "0".repeat(64) }],
    };
    expect(shownHandle({ ...binding, shown: JSON.stringify(other) })).toBeUndefined();
  });
});
