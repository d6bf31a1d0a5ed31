import { type CallContext, CodemodeError } from "@codemode/core";
import type { PreparedRequest } from "./build-request.ts";
import { applyCredentials, type Credential, redact } from "./credentials.ts";
import { HttpError } from "./http-error.ts";
import { type FetchLike, platformFetch } from "./platform.ts";
import { READ_METHODS } from "./raw-request.ts";
import { readResponse } from "./read-response.ts";

/** What every request of one connector shares. */
export interface SendSettings {
  connector: string;
  baseUrl: string;
  /** the application's fetch, else the platform's at each call */
  fetch: FetchLike | undefined;
  /** lower-case names */
  headers: Record<string, string>;
  idempotencyHeader: string | undefined;
  /** secrets written in the options, cleared from messages even when the request did not carry them */
  secrets: readonly string[];
}

/** Characters of an error response's body read before the error keeps its excerpt. */
const BODY_READ_LENGTH = 4_000;

/**
 * Sends one request with the credentials chosen for it and reads the response: a 2xx body parsed,
 * anything else an `HttpError`, a network failure `CONNECTOR_FAILED`; secrets are cleared from both.
 */
export async function sendRequest(
  settings: SendSettings,
  request: PreparedRequest,
  credentials: readonly Credential[],
  context: CallContext,
  idempotencyKey: string,
): Promise<unknown> {
  const fetch = settings.fetch ?? platformFetch();
  if (!fetch) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${settings.connector}": this platform has no fetch; pass one in the options.`,
    );
  }
  const headers: Record<string, string> = {
    accept: "application/json, */*;q=0.8",
    ...settings.headers,
    ...request.headers,
  };
  if (settings.idempotencyHeader && !READ_METHODS.includes(request.method)) {
    headers[settings.idempotencyHeader.toLowerCase()] = idempotencyKey;
  }
  const target = { headers, query: [...request.query], cookies: [...request.cookies] };
  const secrets = [...(await applyCredentials(credentials, target)), ...settings.secrets];
  if (target.cookies.length > 0) {
    headers.cookie = [headers.cookie, ...target.cookies].filter(Boolean).join("; ");
  }
  const separator = request.path.includes("?") ? "&" : "?";
  const query = target.query.length > 0 ? separator + target.query.join("&") : "";
  const url = `${settings.baseUrl}${request.path}${query}`;
  const where = `${request.method} ${redact(request.path, secrets)}`;
  let response: Awaited<ReturnType<FetchLike>>;
  try {
    response = await fetch(url, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: context.signal,
    });
  } catch (error) {
    if (context.signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new CodemodeError(
      "CONNECTOR_FAILED",
      redact(`${settings.connector}: ${where} could not be sent: ${message}`, secrets),
      { cause: error },
    );
  }
  if (!response.ok) {
    let body = "";
    try {
      body = (await response.text()).slice(0, BODY_READ_LENGTH);
    } catch {
      // the status says enough
    }
    throw new HttpError({
      status: response.status,
      statusText: redact(response.statusText, secrets),
      method: request.method,
      path: redact(request.path, secrets),
      body: redact(body, secrets),
    });
  }
  return readResponse(response);
}
