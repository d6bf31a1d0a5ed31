import { type Browser, chromium } from "playwright-core";
import { CHROMIUM_LAUNCH_OPTIONS } from "../../../../vitest.shared.ts";

/**
 * Debian's Chromium (CHROMIUM_PATH overrides), headless, with nothing that reaches the network;
 * `args` adds switches (`--host-resolver-rules=MAP rebound.test 127.0.0.1` makes a name of another
 * site resolve to this machine, as a DNS-rebinding page's does).
 */
export function launchChromium(args: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    ...CHROMIUM_LAUNCH_OPTIONS,
    args: [...CHROMIUM_LAUNCH_OPTIONS.args, ...args],
    headless: true,
  });
}
