/** How many characters of an error response's body the error keeps. */
export const BODY_EXCERPT_LENGTH = 500;

/** Characters of the status text the error keeps. */
const STATUS_TEXT_LENGTH = 200;

/**
 * What the model reads about failures, in the connector's instructions (its declarations show them):
 * the fields of an `HttpError` as the sandbox's `catch` sees them.
 */
export const HTTP_ERROR_NOTE = `A response outside 2xx rejects with an error whose name is "HttpError" and code "HTTP_ERROR", with status (the HTTP status, a number), statusText, method, path and body (at most ${BODY_EXCERPT_LENGTH} characters of the response): try { … } catch (error) { if (error.status === 404) … }.`;

/**
 * An HTTP response outside 2xx, as a catchable error: its message names the method, the path (never
 * the query, where a credential may travel), the status and an excerpt of the body. Its own fields
 * (`status`, `statusText`, `method`, `path`, `body`) cross the sandbox boundary as the error's data,
 * so the model's `catch` reads them, on the live call and on its replay alike.
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
    const statusText = options.statusText.slice(0, STATUS_TEXT_LENGTH);
    const status = `${options.status}${statusText ? ` ${statusText}` : ""}`;
    super(
      `${options.method} ${options.path} failed with HTTP ${status}${body.trim() ? `: ${body.trim()}` : "."}`,
    );
    this.name = "HttpError";
    this.status = options.status;
    this.statusText = options.statusText.slice(0, STATUS_TEXT_LENGTH);
    this.method = options.method;
    this.path = options.path;
    this.body = body;
  }
}
