/** How many characters of an error response's body the error keeps. */
export const BODY_EXCERPT_LENGTH = 500;

/**
 * An HTTP response outside 2xx, as a catchable error: its message names the method, the path (never
 * the query, where a credential may travel), the status and an excerpt of the body, and crosses the
 * sandbox boundary whole; `status` and `body` are there for the host.
 */
export class HttpError extends Error {
  readonly code = "HTTP_ERROR";
  readonly status: number;
  readonly statusText: string;
  readonly method: string;
  readonly path: string;
  /** at most `BODY_EXCERPT_LENGTH` characters of the response body */
  readonly body: string;

  constructor(options: {
    status: number;
    statusText: string;
    method: string;
    path: string;
    body: string;
  }) {
    const body =
      options.body.length > BODY_EXCERPT_LENGTH
        ? `${options.body.slice(0, BODY_EXCERPT_LENGTH)}…`
        : options.body;
    const status = `${options.status}${options.statusText ? ` ${options.statusText}` : ""}`;
    super(
      `${options.method} ${options.path} failed with HTTP ${status}${body.trim() ? `: ${body.trim()}` : "."}`,
    );
    this.name = "HttpError";
    this.status = options.status;
    this.statusText = options.statusText;
    this.method = options.method;
    this.path = options.path;
    this.body = body;
  }
}
