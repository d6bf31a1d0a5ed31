import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type Tool, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { listAllTools } from "./list-all-tools.ts";

/** The tools of one connected client, listed once and listed again after the server says they changed. */
export interface ToolCache {
  tools(): Promise<Tool[]>;
  /** forgets the listing: the next `tools()` asks the server */
  invalidate(): void;
}

const caches = new WeakMap<Client, ToolCache>();

/**
 * The tool cache of a client, shared by every connector made over it (applications re-create
 * connectors per request, the client lives longer). The first use installs the client's handler
 * for `notifications/tools/list_changed`, which drops the listing.
 */
export function toolCache(client: Client): ToolCache {
  const known = caches.get(client);
  if (known) return known;
  let listing: Promise<Tool[]> | undefined;
  const cache: ToolCache = {
    tools() {
      if (listing) return listing;
      const current = listAllTools(client);
      listing = current;
      current.catch(() => {
        if (listing === current) listing = undefined;
      });
      return current;
    },
    invalidate() {
      listing = undefined;
    },
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => cache.invalidate());
  caches.set(client, cache);
  return cache;
}
