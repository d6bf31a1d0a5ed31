import { defineConfig } from "tsdown";

export default defineConfig({
  entry: { index: "src/index.ts", internal: "src/internal.ts", "test/index": "src/test/index.ts" },
  platform: "neutral",
  dts: true,
  publint: true,
});
