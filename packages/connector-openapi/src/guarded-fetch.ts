import { type AbortSignalLike, CodemodeError } from "@codemode/core";
import { type AddressPolicy, destinationRefusal } from "./address-policy.ts";
import type { FetchInit, FetchLike, ResponseLike } from "./platform.ts";
import { parseUrl } from "./platform.ts";
import { discardBody } from "./read-body.ts";

/** How one connector reaches the network. */
export interface Egress {
  fetch: FetchLike;
  policy: AddressPolicy;
  /** redirects one request follows, at most */
  maxRedirects: number;
}

/** One request as the guard sends it. */
export interface GuardedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: FetchInit["body"] | undefined;
  /**
   * Lower-case names of the headers that may go to another origin after a redirect: the request's
   * own. The others (credentials, cookies, the host's headers, the idempotency key) go only to
   * `origin`, and only while every hop so far stayed there.
   */
  portableHeaders: ReadonlySet<string>;
  /** the origin of the operation's server */
  origin: string;
  /** the host named this origin itself (`baseUrl`, a document object): its addresses are not checked */
  originTrusted: boolean;
  signal: AbortSignalLike | undefined;
  /** the request in messages ("GET /tasks/1"), already cleared of secrets */
  where: string;
  /** clears secrets from text that goes into a message */
  redact(text: string): string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function failed(message: string, cause?: unknown): CodemodeError {
  return new CodemodeError("CONNECTOR_FAILED", message, cause === undefined ? {} : { cause });
}

function portable(
  headers: Record<string, string>,
  names: ReadonlySet<string>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => names.has(name)));
}

/**
 * Sends a request and follows its redirects by hand (`redirect: "manual"`), so that each hop is
 * checked before anything is sent: every URL's address passes the policy (unless it is the
 * trusted server's own origin); credentials and the host's headers go only to the operation's
 * origin; a body goes again only to that origin (a 307 or 308 elsewhere ends the request with an
 * error, not a re-send); 301 and 302 after POST, and 303, continue as GET without the body; at most
 * `maxRedirects` hops. Resolves to the first response that is not a redirect; a failure to send is
 * `CONNECTOR_FAILED` with a message the model can read (an aborted request rejects with its signal's
 * reason).
 */
export async function guardedFetch(egress: Egress, request: GuardedRequest): Promise<ResponseLike> {
  const { where, redact } = request;
  let url = request.url;
  let method = request.method;
  let body = request.body;
  let headers = request.headers;
  let onOrigin = true;
  for (let hop = 0; ; hop++) {
    const target = parseUrl(url);
    if (!target) throw failed(`${where} was redirected to a URL that does not parse.`);
    onOrigin &&= target.origin === request.origin;
    if (!(onOrigin && request.originTrusted)) {
      const refusal = await destinationRefusal(target, egress.policy);
      if (refusal !== undefined) {
        throw failed(
          hop === 0
            ? `${where} was not sent: ${redact(refusal)}.`
            : `${where} was redirected to ${redact(target.origin)}, where the connector does not go: ${redact(refusal)}.`,
        );
      }
    }
    let response: ResponseLike;
    try {
      response = await egress.fetch(url, {
        method,
        headers: onOrigin ? headers : portable(headers, request.portableHeaders),
        ...(body !== undefined ? { body } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        redirect: "manual",
      });
    } catch (error) {
      // the reason itself, as the runtime knows the abort it caused (a fetch may wrap it)
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      throw failed(redact(`${where} could not be sent: ${sendFailure(error)}`), error);
    }
    if (response.type === "opaqueredirect") {
      throw failed(
        `${where} was answered with a redirect, which this platform does not let the connector follow by hand (it would not know where the credentials go); use the final URL of the resource.`,
      );
    }
    const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
    if (location === null) return response;
    await discardBody(response);
    if (hop >= egress.maxRedirects) {
      throw failed(
        `${where} was redirected more than ${egress.maxRedirects} times; the host can allow more with limits.redirects.`,
      );
    }
    const next = parseUrl(location, url);
    if (!next) throw failed(`${where} was redirected to a URL that does not parse.`);
    const status = response.status;
    if (
      (status === 303 && method !== "GET" && method !== "HEAD") ||
      ((status === 301 || status === 302) && method === "POST")
    ) {
      method = "GET";
      body = undefined;
      const { "content-type": _type, ...rest } = headers;
      headers = rest;
    }
    if (body !== undefined && !(onOrigin && next.origin === request.origin)) {
      throw failed(
        `${where} was answered with HTTP ${status}, which asks to send the request and its body again to ${redact(next.origin)}; the connector sends a body only to the API's own server, so the request ended there (the server may not have acted on it).`,
      );
    }
    url = next.href;
  }
}

/**
 * Why a request could not be sent, as the platform said it: its message, and the code of its cause
 * where it has one (`fetch failed` alone does not tell a refused connection from a reset one).
 */
function sendFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === "string" ? cause.code.slice(0, 40) : undefined;
  return code === undefined ? message : `${message} (${code})`;
}
