import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts", "src/quickjs.ts", "src/cloudflare.ts"],
  platform: "neutral",
  dts: true,
  publint: true,
  external: ["cloudflare:workers"],
});
