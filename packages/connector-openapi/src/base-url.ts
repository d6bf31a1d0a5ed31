import { CodemodeError } from "@codemode/core";
import type { OpenApiDocument } from "./openapi-document.ts";
import { isAbsoluteUrl } from "./options.ts";
import { parseUrl } from "./platform.ts";
import { serverUrl } from "./server-url.ts";

/** Where a connector's requests go, and whether the host chose it. */
export interface BaseUrl {
  /** absolute, no trailing slash */
  url: string;
  /**
   * The host named it: its `baseUrl`, or the servers of a document object it handed over. The
   * guard does not check a trusted origin's addresses (it does for a document read from a URL or
   * a path, as for every redirect).
   */
  trusted: boolean;
}

/** Whether a document source is read over the network (an http or https URL). */
function isDocumentUrl(document: unknown): document is string {
  return typeof document === "string" && /^https?:/i.test(document);
}

/**
 * The base URL of a connector: the host's `baseUrl`, else the document's first server. A document
 * read from a URL is not the host's word: it may name its server only on the origin the host read
 * it from (a relative server URL is), since every request carries the host's credentials. A server
 * elsewhere (another host, port or scheme, also through server variables or Swagger 2's `host`)
 * is `INVALID_CONFIG` that names both origins; the host passes `baseUrl` to send requests there.
 */
export function chooseBaseUrl(
  connector: string,
  options: { baseUrl?: string | undefined; document: unknown },
  document: OpenApiDocument,
): BaseUrl {
  const url = (options.baseUrl ?? serverUrl(document))?.replace(/\/+$/, "");
  if (url === undefined || !isAbsoluteUrl(url)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${connector}" needs a baseUrl: the document names no absolute server URL${url ? ` ("${url}")` : ""}.`,
    );
  }
  const trusted = options.baseUrl !== undefined || typeof options.document !== "string";
  // a document object or path is the host's own: its servers are the host's choice
  if (options.baseUrl !== undefined || !isDocumentUrl(options.document)) return { url, trusted };
  const from = parseUrl(options.document)?.origin;
  const server = parseUrl(url);
  if (from === undefined || server === undefined || server.origin !== from) {
    const named = server && server.origin !== "null" ? server.origin : JSON.stringify(url);
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${connector}": the document read from ${from ?? "its URL"} names its server at ${named}, another origin; a document read from a URL may only send requests (and the host's credentials) to its own origin. Pass baseUrl to say where requests go.`,
    );
  }
  return { url, trusted: false };
}
