import { type CallContext, CodemodeError } from "@codemode/core";
import type { PreparedRequest } from "./build-request.ts";
import { checkRequest } from "./check-request.ts";
import { applyCredentials, type Credential } from "./credentials.ts";
import { type Egress, guardedFetch } from "./guarded-fetch.ts";
import { HttpError } from "./http-error.ts";
import { fromUtf8, parseUrl } from "./platform.ts";
import { READ_METHODS } from "./raw-request.ts";
import { readBody } from "./read-body.ts";
import { decodeResponse } from "./read-response.ts";
import type { Redactor } from "./redactor.ts";

/** What every request of one connector shares. */
export interface SendSettings {
  connector: string;
  /** no trailing slash */
  baseUrl: string;
  /** the host named the base URL (`baseUrl`, a document object), so its address is not checked */
  baseTrusted: boolean;
  /** the application's fetch, else the platform's (read at each call), behind the guard */
  egress: () => Egress;
  /** lower-case names */
  headers: Record<string, string>;
  idempotencyHeader: string | undefined;
  /** clears every credential the connector knows from what the sandbox and messages see */
  redactor: Redactor;
  /** bytes of a response body the connector reads */
  maxResponseBytes: number;
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
  const headers: Record<string, string> = {
    accept: "application/json, */*;q=0.8",
    ...settings.headers,
    ...request.headers,
  };
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
  const separator = request.path.includes("?") ? "&" : "?";
  const query = target.query.length > 0 ? separator + target.query.join("&") : "";
  const url = `${settings.baseUrl}${request.path}${query}`;
  const base = parseUrl(`${settings.baseUrl}/`);
  const parsed = parseUrl(url);
  if (
    !base ||
    !parsed ||
    parsed.origin !== base.origin ||
    !parsed.pathname.startsWith(base.pathname)
  ) {
    throw new CodemodeError(
      "INVALID_INPUT",
      `${settings.connector}: ${where} would leave the API's base URL; send a path under it.`,
    );
  }
  const response = await guardedFetch(egress, {
    method: request.method,
    url,
    headers,
    body: request.body,
    portableHeaders,
    origin: base.origin,
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
