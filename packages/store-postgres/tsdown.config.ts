import { defineConfig } from "tsdown";

// Node only (node:crypto); `.js` files as the package's exports name them
export default defineConfig({
  entry: ["src/index.ts"],
  platform: "node",
  fixedExtension: false,
  dts: true,
  publint: true,
});
