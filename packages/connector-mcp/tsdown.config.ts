import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts", "src/stdio.ts"],
  platform: "neutral",
  dts: true,
  publint: true,
});
