// The demos' end-to-end test helpers (Node only): `wrangler dev` for an app, Debian's Chromium, a page
// session that ties them to a test file's hooks, a stand-in code tool for the offline model, and a
// request with any headers (another Host, another Origin).
export { launchChromium } from "./launch-chromium.ts";
export { type ConformanceCheck, mcpConformanceScenario } from "./mcp-conformance.ts";
export { eventually, type PageSession, pageSession, WAIT_MS } from "./page-session.ts";
export { type RawRequest, type RawResponse, rawRequest } from "./raw-request.ts";
export { recordingCodeTool } from "./recording-code-tool.ts";
export { type DevServer, startWranglerDev, type WranglerDevOptions } from "./wrangler-dev.ts";
