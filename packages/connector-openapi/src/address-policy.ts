import { CodemodeError } from "@codemode/core";
import { isInternalAddress, isIpAddress } from "./internal-address.ts";
import { type Lookup, parseUrl, platformLookup, type UrlLike } from "./platform.ts";

/** Where a connector may connect: the `internalUrls` option, read once, and the resolver. */
export interface AddressPolicy {
  /** `internalUrls: true`: every address */
  allowAll: boolean;
  /** origins (`http://127.0.0.1:8787`) allowed although their addresses are internal */
  origins: ReadonlySet<string>;
  /** host names and addresses (`localhost`, `10.0.0.5`) allowed likewise */
  hosts: ReadonlySet<string>;
  /** the application's resolver; else the platform's where it has one */
  lookup: Lookup | undefined;
}

const bare = (host: string) =>
  host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");

/** The `internalUrls` option as a policy; an entry that is neither an origin nor a name is `INVALID_CONFIG`. */
export function addressPolicy(
  connector: string,
  internalUrls: unknown,
  lookup: Lookup | undefined,
): AddressPolicy {
  const origins = new Set<string>();
  const hosts = new Set<string>();
  if (Array.isArray(internalUrls)) {
    for (const entry of internalUrls) {
      const url = typeof entry === "string" && entry.includes("://") ? parseUrl(entry) : undefined;
      if (url && /^https?:$/.test(url.protocol)) origins.add(url.origin);
      else if (typeof entry === "string" && /^[^\s/?#@]+$/.test(entry)) hosts.add(bare(entry));
      else {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `openApiConnector "${connector}": each entry of internalUrls is an origin ("http://127.0.0.1:8787") or a host name ("localhost"), not ${JSON.stringify(entry)}.`,
        );
      }
    }
  } else if (internalUrls !== undefined && typeof internalUrls !== "boolean") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${connector}": internalUrls is true, false or a list of origins and host names.`,
    );
  }
  return { allowAll: internalUrls === true, origins, hosts, lookup };
}

/**
 * Why the connector may not connect to `url`, or undefined when it may: only http and https, no
 * user name or password in the URL, and no internal address (loopback, link-local, private,
 * unspecified) unless the policy lists it. A host name is resolved first where the platform can
 * (or the application gave `lookup`), and every address it resolves to must be public; where
 * nothing resolves names, literal addresses and `localhost` are refused and the platform's
 * `fetch` decides the rest.
 */
export async function destinationRefusal(
  url: UrlLike,
  policy: AddressPolicy,
): Promise<string | undefined> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `only http and https URLs are fetched, not ${url.protocol}`;
  }
  if (url.username !== "" || url.password !== "") {
    return "a URL with a user name or password is not fetched";
  }
  const host = bare(url.hostname);
  if (policy.allowAll || policy.origins.has(url.origin) || policy.hosts.has(host)) return undefined;
  if (policy.hosts.has(bare(url.host))) return undefined;
  const listIt = `; list it in internalUrls to allow it`;
  if (isIpAddress(host)) {
    return isInternalAddress(host) ? `${host} is an internal address${listIt}` : undefined;
  }
  if (host === "localhost" || host.endsWith(".localhost")) {
    return `${host} names this machine${listIt}`;
  }
  const lookup = policy.lookup ?? (await platformLookup());
  if (!lookup) return undefined;
  let addresses: readonly string[];
  try {
    addresses = await lookup(host);
  } catch (error) {
    return `${host} could not be resolved (${error instanceof Error ? error.message : String(error)})`;
  }
  if (addresses.length === 0) return `${host} resolves to no address`;
  const internal = addresses.find((address) => isInternalAddress(address));
  return internal === undefined
    ? undefined
    : `${host} resolves to ${internal}, an internal address${listIt}`;
}
