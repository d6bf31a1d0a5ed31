// workerd loads a `.wasm` module only from inside the worker's own folder (not from the workspace's
// node_modules), so the workers tests use a copy of the QuickJS build next to them.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const source = join(
  dirname(require.resolve("@jitl/quickjs-wasmfile-release-sync/package.json")),
  "dist",
  "emscripten-module.wasm",
);
const target = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "test",
  "workers",
  "quickjs.wasm",
);
mkdirSync(dirname(target), { recursive: true });
copyFileSync(source, target);
