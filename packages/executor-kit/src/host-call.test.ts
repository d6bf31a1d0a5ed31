import { createValueCodec } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { callHost, describeNamespaces } from "./host-call.ts";
import { LogSink } from "./log-sink.ts";

const codec = createValueCodec();

describe("callHost", () => {
  const globals = {
    ns: {
      echo: async (input: unknown) => input,
      fail: async () => {
        throw Object.assign(new RangeError("no such page"), { code: "NOT_FOUND" });
      },
      big: async () => "x".repeat(100),
    },
  };

  it("decodes the input, calls the method and encodes its result", async () => {
    const input = { when: new Date(0), tags: new Set(["a"]), n: 1n };
    const reply = await callHost(globals, "ns", "echo", codec.encode(input));
    expect(reply).toHaveLength(2);
    expect(reply[0]).toBe("ok");
    expect(codec.decode(reply[1])).toStrictEqual(input);
  });

  it("answers failures as error replies, never rejecting", async () => {
    expect(await callHost(globals, "ns", "fail", "null")).toEqual([
      "error",
      "RangeError",
      "no such page",
      "NOT_FOUND",
      "",
    ]);
    const unknown = await callHost(globals, "ns", "toString", "null");
    expect(unknown).toEqual(["error", "TypeError", expect.any(String), "UNKNOWN_METHOD", ""]);
    const unreadable = await callHost(globals, "ns", "echo", "{not json");
    expect(unreadable).toEqual(["error", "TypeError", expect.stringMatching(/unreadable/), "", ""]);
  });

  it("serves only the own, enumerable methods describeNamespaces lists", async () => {
    const hidden = { ns: { visible: async () => "ok" } };
    Object.defineProperty(hidden.ns, "secret", { value: async () => "leaked", enumerable: false });
    Object.defineProperty(hidden, "internal", {
      value: { run: async () => "leaked" },
      enumerable: false,
    });
    expect(describeNamespaces(hidden)).toEqual({ ns: ["visible"] });
    expect(await callHost(hidden, "ns", "visible", "null")).toEqual(["ok", '"ok"']);
    for (const [namespace, method] of [
      ["ns", "secret"],
      ["internal", "run"],
      ["ns", "__proto__"],
    ]) {
      const reply = await callHost(hidden, namespace as string, method as string, "null");
      expect(reply[0]).toBe("error");
      expect(reply[3]).toBe("UNKNOWN_METHOD");
    }
  });

  it("sends an error's own data with it, never calling back into what it cannot read", async () => {
    const data = {
      ns: {
        http: async () => {
          throw Object.assign(new Error("GET /x failed"), { code: "HTTP_ERROR", status: 404 });
        },
        proxy: async () => {
          throw new Proxy(
            {},
            {
              get: () => {
                throw new Error("trap");
              },
            },
          );
        },
      },
    };
    const http = await callHost(data, "ns", "http", "null");
    expect(http).toEqual(["error", "Error", "GET /x failed", "HTTP_ERROR", expect.any(String)]);
    expect(codec.decode(http[4] as string)).toEqual({ status: 404 });
    const proxy = await callHost(data, "ns", "proxy", "null");
    expect(proxy).toEqual(["error", "Error", expect.any(String), "", ""]);
  });

  it("refuses a result larger than the limit, saying why", async () => {
    const reply = await callHost(globals, "ns", "big", "null", { chars: 10, reason: "fits here" });
    expect(reply).toEqual([
      "error",
      "RangeError",
      expect.stringContaining("more than fits here"),
      "TOO_LARGE",
      "",
    ]);
  });
});

describe("describeNamespaces", () => {
  it("lists methods and refuses names that cannot be globals", () => {
    expect(describeNamespaces({ a: { x: async () => 1, y: "no" as never } })).toEqual({ a: ["x"] });
    expect(() => describeNamespaces({ "not-valid": {} })).toThrow(/identifier/);
  });
});

describe("LogSink", () => {
  it("keeps lines up to its bounds and counts the rest", () => {
    const sink = new LogSink(2, 1_000);
    for (const line of ["one", "two", "three", "four"]) sink.add(line);
    expect(sink.snapshot()).toEqual(["one", "two", "… 2 more lines dropped"]);
    const short = new LogSink(10, 5);
    short.add("abcdefgh");
    expect(short.snapshot()).toEqual(["abcde…"]);
  });
});
