import { describe, expect, it } from "vitest";
import { canonical } from "./integrity-ledger.ts";
import { readQuestion } from "./mcp-question.ts";

describe("readQuestion", () => {
  it("reads the call of a question that says where it goes, whatever that sentence holds", () => {
    expect(
      readQuestion(
        'The code wants to run svc.write({"note":"a). b"}). It sends POST https://api.example/v1/{id} (request form 9c1e). Approve it?',
      ),
    ).toEqual({
      position: 1,
      count: 1,
      connector: "svc",
      method: "write",
      input: canonical({ note: "a). b" }),
    });
    expect(
      readQuestion(
        "The code wants to run 2 calls together; none runs unless you approve each. Call 2 of 2: svc.write(7). It sends GET /x(1). It may have run. Approve it?",
      ),
    ).toEqual({ position: 2, count: 2, connector: "svc", method: "write", input: canonical(7) });
  });

  it("reads no call from a question whose input is not JSON text closed by its `).`", () => {
    for (const message of [
      "The code wants to run svc.write({). Approve it?",
      'The code wants to run svc.write({"a":1}) Approve it?',
      'The code wants to run svc.write({"a":1}x). Approve it?',
      'The code wants to run svc.write({"a":1}). Run it?',
    ]) {
      expect(readQuestion(message)).toBeUndefined();
    }
  });
});
