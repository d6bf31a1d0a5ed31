import { describe, expect, it } from "vitest";
import {
  codec,
  connectorHooks,
  idempotencyKey,
  preview,
  RECORD_ATTEMPTS,
  retried,
  revertKey,
} from "./values.ts";

describe("values", () => {
  it("keys a call and its revert by run and seq", () => {
    expect(idempotencyKey("exec_1", 3)).toBe("exec_1:3");
    expect(revertKey("exec_1", 3)).toBe("exec_1:3:revert");
  });

  it("previews text within its length", () => {
    expect(preview(undefined)).toBe("");
    expect(preview("short")).toBe("short");
    expect(preview("abcdef", 4)).toBe("abc…");
    expect(codec.decode(codec.encode(new Date(0)))).toEqual(new Date(0));
  });

  it("tries a write again after a store error, at most RECORD_ATTEMPTS times", async () => {
    let calls = 0;
    expect(
      await retried(async () => {
        calls++;
        if (calls < RECORD_ATTEMPTS) throw new Error("connection terminated");
        return "written";
      }),
    ).toBe("written");
    expect(calls).toBe(RECORD_ATTEMPTS);
    calls = 0;
    await expect(
      retried(async () => {
        calls++;
        throw new Error(`failure ${calls}`);
      }),
    ).rejects.toThrow(`failure ${RECORD_ATTEMPTS}`);
    expect(calls).toBe(RECORD_ATTEMPTS);
  });

  it("runs every connector's hooks in order, whichever of them fails", async () => {
    const heard: string[] = [];
    const hooks = connectorHooks([
      {
        onPassEnd: (id, status) => {
          heard.push(`a pass ${id} ${status}`);
          throw new Error("cleanup failed");
        },
        disposeExecution: async (id, status) => {
          heard.push(`a end ${id} ${status}`);
          throw new Error("dispose failed");
        },
      },
      {},
      { disposeExecution: (id, status) => heard.push(`c end ${id} ${status}`) },
    ]);
    await hooks("exec_1", "completed", "completed");
    await hooks("exec_2", undefined, "rejected");
    await hooks("exec_3", "paused", undefined);
    expect(heard).toEqual([
      "a pass exec_1 completed",
      "a end exec_1 completed",
      "c end exec_1 completed",
      "a end exec_2 rejected",
      "c end exec_2 rejected",
      "a pass exec_3 paused",
    ]);
  });
});
