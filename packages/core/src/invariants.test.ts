import { describe, expect, it } from "vitest";
import {
  checkText,
  decodeErrorRecord,
  encodeErrorRecord,
  encodeForJournal,
  errorFromRecord,
  errorRecordOf,
  MAX_ERROR_DATA_KEYS,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_RECORDED_LENGTH,
  wellFormed,
} from "./invariants.ts";

class HttpishError extends Error {
  readonly code = "HTTP_ERROR";
  readonly status = 404;
  readonly body = "missing";
  constructor() {
    super("GET /x failed with HTTP 404");
    this.name = "HttpError";
  }
}

describe("errorRecordOf: a failure of any shape is recorded as a failure", () => {
  it("keeps an error's name, message, code and own data", () => {
    expect(errorRecordOf(new HttpishError())).toEqual({
      name: "HttpError",
      message: "GET /x failed with HTTP 404",
      code: "HTTP_ERROR",
      data: { status: 404, body: "missing" },
    });
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["undefined", undefined],
    ["a string", "boom"],
    ["a number", 42],
    ["a symbol", Symbol("s")],
    ["an object without a prototype", Object.create(null)],
    [
      "a Proxy whose every trap throws",
      new Proxy(
        {},
        {
          get() {
            throw new Error("trap");
          },
          ownKeys() {
            throw new Error("trap");
          },
          getPrototypeOf() {
            throw new Error("trap");
          },
        },
      ),
    ],
    [
      "an Error whose message getter throws",
      Object.defineProperty(new Error("x"), "message", {
        get() {
          throw new Error("getter");
        },
      }),
    ],
    [
      "an object whose toString throws",
      {
        toString: () => {
          throw new Error("no");
        },
      },
    ],
  ])("gives a record for %s and never throws", (_what, thrown) => {
    const record = errorRecordOf(thrown);
    expect(typeof record.name).toBe("string");
    expect(typeof record.message).toBe("string");
    expect(() => encodeErrorRecord(record)).not.toThrow();
  });

  it("cuts a huge message and leaves out data it cannot record, live and replayed alike", () => {
    const error = new Error("m".repeat(MAX_ERROR_MESSAGE_LENGTH * 3)) as Error & {
      blob?: string;
      fn?: () => void;
    };
    error.blob = "b".repeat(200_000);
    const record = errorRecordOf(error);
    expect(record.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_LENGTH + 1);
    expect(record.data).toBeUndefined();
  });

  it("keeps at most the first MAX_ERROR_DATA_KEYS data properties", () => {
    const error = Object.assign(
      new Error("many"),
      Object.fromEntries(Array.from({ length: 250 }, (_, index) => [`k${index}`, index])),
    );
    const data = errorRecordOf(error).data as Record<string, number>;
    expect(Object.keys(data)).toHaveLength(MAX_ERROR_DATA_KEYS);
    expect(data.k0).toBe(0);
    expect(data.k99).toBe(99);
  });

  it("a record round-trips through the journal into the same error, and an old row keeps its message", () => {
    const record = errorRecordOf(new HttpishError());
    const again = decodeErrorRecord(record.message, encodeErrorRecord(record));
    expect(again).toEqual(record);
    const error = errorFromRecord(again) as Error & Record<string, unknown>;
    expect([error.name, error.message, error.code, error.status]).toEqual([
      "HttpError",
      "GET /x failed with HTTP 404",
      "HTTP_ERROR",
      404,
    ]);
    expect(decodeErrorRecord("old message", undefined)).toEqual({
      name: "Error",
      message: "old message",
    });
  });

  it("data cannot set the prototype of the error it is copied onto", () => {
    const error = errorFromRecord({
      name: "Error",
      message: "m",
      data: JSON.parse('{"__proto__": {"polluted": true}}'),
    }) as Error & { polluted?: boolean };
    expect(error.polluted).toBeUndefined();
    expect(Object.getPrototypeOf(error)).toBe(Error.prototype);
  });
});

describe("bounded inputs", () => {
  it("encodeForJournal records whole or refuses with advice", () => {
    expect(encodeForJournal({ a: 1 }, "x")).toBe('{"a":1}');
    expect(() => encodeForJournal("x".repeat(MAX_RECORDED_LENGTH), "The value")).toThrow(
      /too large to record/,
    );
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => encodeForJournal(cycle, "The value")).toThrow(/could not be recorded/);
  });

  it("checkText refuses what is too long or what a store cannot keep as it is", () => {
    expect(checkText("fine", "A name", 10)).toBe("fine");
    expect(() => checkText("x".repeat(11), "A name", 10)).toThrow(
      expect.objectContaining({ code: "TOO_LARGE" }),
    );
    expect(() => checkText(7, "A name", 10)).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
    for (const bad of ["\ud800", "a\udc00", "a\u0000b"]) {
      expect(wellFormed(bad)).toBe(false);
      expect(() => checkText(bad, "A name", 10)).toThrow(
        expect.objectContaining({ code: "INVALID_INPUT" }),
      );
    }
    expect(wellFormed("emoji \ud83d\ude00 fine")).toBe(true);
  });
});
