import type { Client, McpSubscription, Tool } from "@modelcontextprotocol/client";
import { listAllTools } from "./list-all-tools.ts";

/** The tools of one connected client, listed once and listed again after the server says they changed. */
export interface ToolCache {
  tools(): Promise<Tool[]>;
  /** forgets the listing: the next `tools()` asks the server */
  invalidate(): void;
}

const caches = new WeakMap<Client, ToolCache>();

/**
 * How long the first listing waits for a server to acknowledge the `subscriptions/listen` stream
 * before it lists without one (as for a server that refuses it).
 */
const LISTEN_TIMEOUT_MS = 10_000;

/** A cache told of changes by someone else (the client's own `listChanged` option). */
function makeCache(client: Client, beforeListing?: () => Promise<unknown>): ToolCache {
  let listing: Promise<Tool[]> | undefined;
  const cache: ToolCache = {
    tools() {
      if (listing) return listing;
      const current = beforeListing
        ? beforeListing().then(() => listAllTools(client))
        : listAllTools(client);
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
  return cache;
}

/**
 * The cache of a client the connector made itself, whose `listChanged` option calls `invalidate`
 * (the SDK then hears `notifications/tools/list_changed` on either era: sent unsolicited on a
 * 2025-11-25 connection, on the `subscriptions/listen` stream it opens on a 2026-07-28 one).
 */
export function ownToolCache(client: Client): ToolCache {
  const cache = makeCache(client);
  caches.set(client, cache);
  return cache;
}

/**
 * The tool cache of a client, shared by every connector made over it (applications re-create
 * connectors per request, the client lives longer). A client the connector did not make gets, on
 * first use, the connector's handler for `notifications/tools/list_changed` (replacing one set
 * before), which drops the listing. On a 2026-07-28 connection the server sends that notification
 * only on a `subscriptions/listen` stream: unless the client's own `listChanged` option opened one
 * for tools, the cache opens it before it lists, and once it closed drops the listing and opens it
 * again before the next.
 */
export function toolCache(client: Client): ToolCache {
  const known = caches.get(client);
  if (known) return known;
  let stream: Promise<McpSubscription | undefined> | undefined;
  const listen = async () => {
    if (client.getProtocolEra() !== "modern") return;
    if (client.getServerCapabilities()?.tools?.listChanged !== true) return;
    if (client.autoOpenedSubscription?.honoredFilter.toolsListChanged === true) return;
    if (stream) return stream;
    const opening = client.listen({ toolsListChanged: true }, { timeout: LISTEN_TIMEOUT_MS }).then(
      (subscription) => {
        void subscription.closed.then(() => {
          if (stream !== opening) return;
          stream = undefined;
          cache.invalidate();
        });
        return subscription;
      },
      // a server that refuses the stream sends no changes: the listing stands, as for a server
      // that advertises none
      () => undefined,
    );
    stream = opening;
    return opening;
  };
  const cache = makeCache(client, listen);
  client.setNotificationHandler("notifications/tools/list_changed", () => cache.invalidate());
  caches.set(client, cache);
  return cache;
}
