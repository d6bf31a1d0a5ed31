// The demos' end-to-end test helpers (Node only): `wrangler dev` for an app, Debian's Chromium, a page
// session that ties them to a test file's hooks, and a stand-in code tool for the offline model.
export { launchChromium } from "./launch-chromium.ts";
export { eventually, type PageSession, pageSession } from "./page-session.ts";
export { recordingCodeTool } from "./recording-code-tool.ts";
export { type DevServer, startWranglerDev, type WranglerDevOptions } from "./wrangler-dev.ts";
