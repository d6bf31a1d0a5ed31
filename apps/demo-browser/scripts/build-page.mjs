#!/usr/bin/env node
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
// Bundles the page (src/page/main.ts with codemode/browser and the AI SDK's chat) into
// public/build/app.js, which public/index.html loads. `wrangler dev` runs it first (the "build"
// command in wrangler.jsonc) and again when src/page changes.
import { build } from "esbuild";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

await build({
  entryPoints: [join(appDir, "src/page/main.ts")],
  outfile: join(appDir, "public/build/app.js"),
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  sourcemap: "linked",
  legalComments: "linked",
  logLevel: "warning",
});
