import { defineConfig } from "tsdown";

export default defineConfig({
  entry: [
    "src/index.ts",
    "src/quickjs.ts",
    "src/cloudflare.ts",
    "src/ai.ts",
    "src/mcp.ts",
    "src/openapi.ts",
    "src/browser.ts",
    "src/tanstack-ai.ts",
  ],
  platform: "neutral",
  dts: true,
  publint: true,
  external: [
    "cloudflare:workers",
    "ai",
    /^@modelcontextprotocol\//,
    /^@codemode\//,
    /^@tanstack\//,
  ],
});
