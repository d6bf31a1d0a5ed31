import { describe, expect, it } from "vitest";
import { createStoreLocal, isStoreLocal, localOf } from "./store-local.ts";

describe("StoreLocal", () => {
  it("is the store's own when it has one, shared by every runtime over that store", () => {
    const local = createStoreLocal();
    const state = localOf({ local });
    expect(localOf({ local })).toBe(state);
    expect(localOf({ local })).not.toBe(localOf({ local: createStoreLocal() }));
    expect(isStoreLocal(local)).toBe(true);
    expect(isStoreLocal({ live: state.live, asks: state.asks })).toBe(false);
    expect(isStoreLocal({})).toBe(false);
  });

  it("is kept per store object for a store without one: the same object shares it, another does not", () => {
    const store = {};
    const local = localOf(store);
    expect(localOf(store)).toBe(local);
    expect(localOf({})).not.toBe(local);
    local.live.add("exec_1");
    expect(localOf(store).live.has("exec_1")).toBe(true);
    expect(localOf({}).live.has("exec_1")).toBe(false);
  });

  it("starts empty: a new storage knows nothing of the passes of another", () => {
    const one = localOf({ local: createStoreLocal() });
    const two = localOf({ local: createStoreLocal() });
    one.live.add("exec_1");
    one.asks.waiting("exec_1", 0);
    expect(two.live.has("exec_1")).toBe(false);
    expect([...two.asks.ask("exec_1").unseen]).toEqual([]);
    expect([...one.asks.ask("exec_1").unseen]).toEqual([0]);
  });
});
