import { type CallContext, CodemodeError } from "@codemode/core";
import type { PreparedRequest } from "./build-request.ts";
import { checkRequest } from "./check-request.ts";
import { applyCredentials, type Credential } from "./credentials.ts";
import { type Egress, guardedFetch } from "./guarded-fetch.ts";
import { HttpError } from "./http-error.ts";
import { fromUtf8 } from "./platform.ts";
import { READ_METHODS } from "./raw-request.ts";
import { readBody } from "./read-body.ts";
import { decodeResponse } from "./read-response.ts";
import type { Redactor } from "./redactor.ts";
import { requestUrl } from "./request-url.ts";

/** What every request of one connector shares. */
export interface SendSettings {
  connector: string;
  /** no trailing slash */
  baseUrl: string;
  /** the host named the base URL (`baseUrl`, a document object), so its address is not checked */
  baseTrusted: boolean;
  /** the application's fetch, else the platform's (read at each call), behind the guard */
  egress: () => Egress;
  /** the host's fixed headers, lower-case names: they win over the request's (see `requestHeaders`) */
  headers: Record<string, string>;
  idempotencyHeader: string | undefined;
  /** clears every credential the connector knows from what the sandbox and messages see */
  redactor: Redactor;
  /** bytes of a response body the connector reads */
  maxResponseBytes: number;
}

/** The error for a request whose URL would not stay under the base URL. */
export function leavesBase(connector: string, where: string): CodemodeError {
  return new CodemodeError(
    "INVALID_INPUT",
    `${connector}: ${where} would leave the API's base URL; send a path under it.`,
  );
}

/**
 * The headers a request is sent with, before credentials: an `Accept` default, the request's own
 * (header parameters, `request()` headers, the body's content type), then the host's fixed
 * `headers`, which win over a request header of the same name (names are lower case on both
 * sides): the sandbox and the document cannot replace what the host fixed (`X-Tenant`, an API
 * version). The one exception is `Content-Type` when the request has a body: the body's encoding
 * decides it (for multipart, fetch writes it with the boundary, so none is set).
 */
export function requestHeaders(
  host: Readonly<Record<string, string>>,
  request: Pick<PreparedRequest, "headers" | "body">,
): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "application/json, */*;q=0.8",
    ...request.headers,
    ...host,
  };
  if (request.body !== undefined) {
    delete headers["content-type"];
    const type = request.headers["content-type"];
    if (type !== undefined) headers["content-type"] = type;
  }
  return headers;
}

/** Bytes of an error response read for its excerpt; the rest is never received. */
const ERROR_BODY_BYTES = 16_384;

/**
 * Sends one request with the credentials chosen for it and reads the response: a 2xx body parsed,
 * anything else an `HttpError`, a network failure `CONNECTOR_FAILED`. The request is checked first
 * (`checkRequest`) and stays under the base URL; it goes through the guard (`guardedFetch`); the
 * body is read up to the limit; every secret is cleared from whatever comes back.
 */
export async function sendRequest(
  settings: SendSettings,
  request: PreparedRequest,
  credentials: readonly Credential[],
  context: CallContext,
  idempotencyKey: string,
): Promise<unknown> {
  const { redactor } = settings;
  const where = `${request.method} ${redactor.text(request.path)}`;
  checkRequest(`${settings.connector}: ${where}`, request);
  const egress = settings.egress();
  const headers = requestHeaders(settings.headers, request);
  if (settings.idempotencyHeader && !READ_METHODS.includes(request.method)) {
    headers[settings.idempotencyHeader.toLowerCase()] = idempotencyKey;
  }
  const target = { headers: {}, query: [...request.query], cookies: [...request.cookies] };
  for (const secret of await applyCredentials(credentials, target)) redactor.add(secret);
  Object.assign(headers, target.headers);
  if (target.cookies.length > 0) {
    headers.cookie = [headers.cookie, ...target.cookies].filter(Boolean).join("; ");
  }
  // what the sandbox shaped may follow a redirect elsewhere; the host's headers and credentials not
  const portableHeaders = new Set(
    ["accept", "content-type", ...Object.keys(request.headers)].filter(
      (name) =>
        name !== "cookie" &&
        !Object.hasOwn(target.headers, name) &&
        !Object.hasOwn(settings.headers, name),
    ),
  );
  const resolved = requestUrl(settings.baseUrl, request.path, target.query);
  if (!resolved) throw leavesBase(settings.connector, where);
  const { url, origin } = resolved;
  const response = await guardedFetch(egress, {
    method: request.method,
    url,
    headers,
    body: request.body,
    portableHeaders,
    origin,
    originTrusted: settings.baseTrusted,
    signal: context.signal,
    where: `${settings.connector}: ${where}`,
    redact: (text) => redactor.text(text),
  });
  if (!response.ok) {
    let body = "";
    try {
      body = fromUtf8(
        await readBody(response, {
          limit: ERROR_BODY_BYTES,
          truncate: true,
          tooLarge: () => new Error("unreachable"),
        }),
      );
    } catch {
      // the status says enough
    }
    throw new HttpError({
      status: response.status,
      statusText: redactor.text(response.statusText),
      method: request.method,
      path: redactor.text(request.path),
      body: redactor.errorText(body),
    });
  }
  const bytes = await readBody(response, {
    limit: settings.maxResponseBytes,
    tooLarge: (limit) =>
      new CodemodeError(
        "TOO_LARGE",
        `${settings.connector}: the response to ${where} is larger than ${limit} bytes, so it was not read; ask for less (a page, a filter, fields) or the host can raise limits.responseBytes.`,
        { details: { limit } },
      ),
  });
  return decodeResponse(response.status, response.headers.get("content-type"), bytes, redactor);
}
