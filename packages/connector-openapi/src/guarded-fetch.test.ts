import { CodemodeError } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { guardedFetch } from "./guarded-fetch.ts";

/** A request to a trusted origin (no address check), through a fetch that fails as `error`. */
function sendThrough(error: unknown, signal?: AbortSignal) {
  return guardedFetch(
    {
      fetch: () => Promise.reject(error),
      policy: { allowAll: true, origins: new Set(), hosts: new Set(), lookup: undefined },
      maxRedirects: 5,
    },
    {
      method: "GET",
      url: "http://127.0.0.1:9/openapi.json",
      headers: {},
      body: undefined,
      portableHeaders: new Set(),
      origin: "http://127.0.0.1:9",
      originTrusted: true,
      signal,
      where: "GET http://127.0.0.1:9/openapi.json",
      redact: (text) => text,
    },
  );
}

describe("guardedFetch, a request that could not be sent", () => {
  it("says why: the platform's message and its cause's code, with the cause kept", async () => {
    const cause = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    const error = await sendThrough(new TypeError("fetch failed", { cause })).catch((e) => e);
    expect(CodemodeError.isInstance(error) && error.code).toBe("CONNECTOR_FAILED");
    expect(error.message).toBe(
      "GET http://127.0.0.1:9/openapi.json could not be sent: fetch failed (ECONNRESET)",
    );
    expect(error.cause).toBeInstanceOf(TypeError);
    const plain = await sendThrough(new TypeError("Failed to fetch")).catch((e) => e);
    expect(plain.message).toBe(
      "GET http://127.0.0.1:9/openapi.json could not be sent: Failed to fetch",
    );
  });

  it("rejects with the signal's reason once it aborted, whatever the fetch rejected with", async () => {
    const controller = new AbortController();
    const reason = new Error("the pass has ended");
    controller.abort(reason);
    // a fetch of its own (a polyfill, a wrapper) may reject with an AbortError that drops the reason
    const error = await sendThrough(
      new Error("The operation was aborted."),
      controller.signal,
    ).catch((e) => e);
    expect(error).toBe(reason);
  });
});
