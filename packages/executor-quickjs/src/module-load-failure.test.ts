// A QuickJS WebAssembly module that fails to load, handed over as a promise: a compiled module
// (`wasmModule`) whose bytes are not WebAssembly (a download cut short), and an injected QuickJS
// module (`module`) whose .wasm file is missing. Each pass fails with INVALID_CONFIG saying so; no
// rejection is left unhandled, neither the promise the executor holds before its first pass nor one
// per instance that quickjs-emscripten's loader made when it awaited the module itself (the pass's
// own and the spare sandbox made after it).
import releaseSyncVariant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { QuickJSExecutor } from "./index.ts";

// (the test's type libraries do not declare the WebAssembly global)
const wasm = (
  globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }
).WebAssembly;

/** the magic number of a WebAssembly binary, then a version no engine knows */
const NOT_WASM = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x09, 0x09, 0x09, 0x09]);

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe("a QuickJS module that fails to load", () => {
  let unhandled: unknown[];
  const hear = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled = [];
    process.on("unhandledRejection", hear);
  });
  afterEach(() => {
    process.off("unhandledRejection", hear);
  });

  it.each([
    [
      "a compiled module (wasmModule)",
      () => new QuickJSExecutor({ wasmModule: wasm.compile(NOT_WASM) }),
    ],
    [
      "an injected QuickJS module (module)",
      () =>
        new QuickJSExecutor({
          module: newQuickJSWASMModuleFromVariant(
            newVariant(releaseSyncVariant, { wasmLocation: "/nonexistent/quickjs.wasm" }),
          ),
        }),
    ],
  ])(
    "%s fails each pass with INVALID_CONFIG and leaves no rejection unhandled",
    async (_name, make) => {
      const executor = make();
      await settle();
      expect(unhandled).toEqual([]);
      for (let pass = 0; pass < 2; pass++) {
        await expect(
          executor.execute({ code: "async () => 1", globals: {} }),
        ).rejects.toMatchObject({
          code: "INVALID_CONFIG",
          message: expect.stringContaining("could not load the QuickJS WebAssembly module"),
        });
        // the spare sandbox is made (and fails to load) soon after the pass
        await settle();
        expect(unhandled).toEqual([]);
      }
      executor.dispose();
    },
  );
});
