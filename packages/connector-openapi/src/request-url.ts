import { parseUrl } from "./platform.ts";

/** A request's URL, and what of it the server reads as the path and query. */
export interface RequestUrl {
  /** what fetch is given */
  url: string;
  /** the base URL's origin, which `url` stays on */
  origin: string;
  /**
   * The path (from the base URL's path on, starting with `/`) and the query the URL parser makes
   * of `url`, which is what fetch sends: dot segments resolved, backslashes turned into `/`,
   * characters percent-encoded. The declared operation a request reaches is found from this, never
   * from the text the request was built as.
   */
  sent: string;
}

/**
 * The URL of a request to `path` (with `query`, `name=value` pairs, appended) under `baseUrl` (no
 * trailing slash), or undefined when that URL does not stay under the base URL: it does not parse,
 * has a fragment (fetch would drop it and send a shorter path), or reaches another origin or a path
 * outside the base path.
 */
export function requestUrl(
  baseUrl: string,
  path: string,
  query: readonly string[] = [],
): RequestUrl | undefined {
  const separator = path.includes("?") ? "&" : "?";
  const url = `${baseUrl}${path}${query.length > 0 ? separator + query.join("&") : ""}`;
  const base = parseUrl(`${baseUrl}/`);
  const parsed = parseUrl(url);
  if (
    !base ||
    !parsed ||
    url.includes("#") ||
    parsed.hash !== "" ||
    parsed.origin !== base.origin ||
    !parsed.pathname.startsWith(base.pathname)
  ) {
    return undefined;
  }
  return {
    url,
    origin: base.origin,
    sent: parsed.pathname.slice(base.pathname.length - 1) + parsed.search,
  };
}
