// The host every attack (and every runaway program) runs against.
import type { HostNamespaces } from "@codemode/core";
import { recorder } from "../suite-parts.ts";

/** The name of the host function behind `ns.fail`: no stack the sandbox sees may show it. */
export const HOST_FRAME = "conformanceHostOnlyFrame";

/** The host of an attack: `ns.echo` records each input and returns it, `ns.fail` always throws. */
export function attackHost(calls: unknown[]): HostNamespaces {
  const frames = {
    async [HOST_FRAME](): Promise<never> {
      throw new Error("failed on the host");
    },
  };
  return {
    ns: {
      echo: recorder(calls),
      fail: () => frames[HOST_FRAME](),
    },
  };
}
