import { type Browser, chromium } from "playwright-core";
import { CHROMIUM_LAUNCH_OPTIONS } from "../../../../vitest.shared.ts";

/** Debian's Chromium (CHROMIUM_PATH overrides), headless, with nothing that reaches the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ ...CHROMIUM_LAUNCH_OPTIONS, headless: true });
}
