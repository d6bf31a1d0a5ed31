// The demos' end-to-end test helpers (Node only): `wrangler dev` for an app, and Debian's Chromium.
export { launchChromium } from "./launch-chromium.ts";
export { type DevServer, startWranglerDev, type WranglerDevOptions } from "./wrangler-dev.ts";
