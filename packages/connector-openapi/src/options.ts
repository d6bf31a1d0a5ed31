import { type ApprovalRule, type CallContext, CodemodeError } from "@codemode/core";
import type { Credential } from "./credentials.ts";
import { isObject, type OpenApiDocument } from "./openapi-document.ts";
import type { FetchLike, Lookup } from "./platform.ts";
import type { RawRequest } from "./raw-request.ts";

/** An operation as the approval policy and `include` see it. */
export interface OperationInfo {
  /** the method's name in the connector */
  name: string;
  operationId: string | undefined;
  /** upper case */
  method: string;
  path: string;
  tags: readonly string[];
}

/**
 * The operations a `revert` knows the types of, by method name or operationId: each one's `input`
 * (its parameters by name, and `body`) and `output` (what the call resolves to). The default leaves
 * every operation untyped.
 */
// biome-ignore lint/suspicious/noExplicitAny: an untyped operation takes and gives anything
export type UntypedOperations = Record<string, { input: any; output: any }>;

/** The input of an entry of an operations map. */
export type InputOf<Types> = Types extends { input: infer Input } ? Input : unknown;
/** What an entry of an operations map resolves to. */
export type OutputOf<Types> = Types extends { output: infer Output } ? Output : unknown;

type InputArgument<Input> = undefined extends Input ? [input?: Input] : [input: Input];

/** What a `revert` function can do: call the API with the connector's credentials. */
export interface OpenApiClient<Operations extends object = UntypedOperations> {
  /** calls an operation by its method name (or operationId), with its input */
  call<Method extends keyof Operations & string>(
    method: Method,
    ...input: InputArgument<InputOf<Operations[Method]>>
  ): Promise<OutputOf<Operations[Method]>>;
  /** the escape hatch, unless `request: false` */
  call(method: "request", input: RawRequest): Promise<unknown>;
  /** the call context of the rollback (its idempotency key ends in `:revert`) */
  context: CallContext;
}

/** Options for one operation, by its method name or its `operationId`. */
export interface OperationOptions<
  Types = UntypedOperations[string],
  Operations extends object = UntypedOperations,
> {
  /** overrides the connector's approval policy for this operation; a function decides per call */
  requiresApproval?: boolean | ApprovalRule;
  /**
   * Undoes an applied call on rollback, e.g. a DELETE built from what a POST returned. A promise it
   * returns is awaited; its value is ignored.
   */
  revert?: (
    input: InputOf<Types>,
    result: OutputOf<Types>,
    client: OpenApiClient<Operations>,
  ) => unknown;
  /** the call fails with a catchable error after this long */
  timeoutMs?: number;
}

/** What the connector reads and follows at most; past a limit, a clear error that names it. */
export interface OpenApiLimits {
  /** bytes of one response body; a larger one fails with `TOO_LARGE` (default 4 MiB) */
  responseBytes?: number;
  /** bytes of a document read from a URL and every file its `$ref`s reach, together (default 32 MiB) */
  documentBytes?: number;
  /** milliseconds to read such a document, all its files together (default 30 s) */
  documentTimeoutMs?: number;
  /** redirects one request (or one document read) follows (default 5) */
  redirects?: number;
}

/** The limits a connector has when the options say nothing. */
export const DEFAULT_LIMITS: Readonly<Required<OpenApiLimits>> = {
  responseBytes: 4 * 1024 * 1024,
  documentBytes: 32 * 1024 * 1024,
  documentTimeoutMs: 30_000,
  redirects: 5,
};

/** Options of the `request` escape hatch. */
export interface EscapeHatchOptions {
  /**
   * GET, HEAD and OPTIONS requests to paths the document does not declare run without approval.
   * Default false: an undeclared request waits for a person, whatever its method.
   */
  undeclaredReadsWithoutApproval?: boolean;
}

/**
 * The options of `openApiConnector`. `Operations` types the inputs and results `revert` and
 * `client.call` see (`openApiConnector<MyOperations>({…})`); `operations` then takes only its keys.
 */
export interface OpenApiConnectorOptions<Operations extends object = UntypedOperations> {
  /** the sandbox global */
  name: string;
  /** the description: an object, or a URL (or a path where the platform has a file system) */
  document: OpenApiDocument | string;
  /** a line or two for the model; default: the document's title */
  instructions?: string;
  /** where requests go; default: the first of the document's `servers` (variables at their defaults) */
  baseUrl?: string;
  /**
   * Applied on the host, never visible to the sandbox; each request carries those its operation's
   * `security` asks for (every one when the document declares no `security` at all).
   */
  credentials?: Credential | readonly Credential[];
  /** headers sent with every request (a `User-Agent`, an API version) */
  headers?: Record<string, string>;
  /** default: the platform's `fetch`, read at each call */
  fetch?: FetchLike;
  /** validate the document against the OpenAPI schema (default true; costs time on large documents) */
  validate?: boolean;
  /**
   * Internal addresses (loopback, link-local, private, unspecified) the connector may reach: `true`
   * for all, or a list of origins (`"http://127.0.0.1:8787"`) and host names (`"localhost"`). They
   * are refused by default wherever the address comes from a document or a redirect.
   */
  internalUrls?: boolean | readonly string[];
  /**
   * Resolves a host name to its addresses before the connector connects, to refuse internal ones;
   * default: `node:dns` in Node, none in Workers and browsers (there the platform's fetch decides)
   */
  lookup?: Lookup;
  /** what the connector reads and follows at most (see `OpenApiLimits` for the defaults) */
  limits?: OpenApiLimits;
  /** which operations need approval; default: every method but GET, HEAD and OPTIONS */
  requiresApproval?: (operation: OperationInfo) => boolean;
  /** per-operation options, by method name or operationId */
  operations?: { [Name in keyof Operations]?: OperationOptions<Operations[Name], Operations> };
  /** which operations become methods (default: all) */
  include?: (operation: OperationInfo) => boolean;
  /**
   * The `request` escape hatch (default on): a request to a declared path follows that operation's
   * approval, `include` and credentials; any other waits for approval unless the options say so.
   * `false` leaves it out.
   */
  request?: boolean | EscapeHatchOptions;
  /** the header that carries the call's idempotency key on non-GET requests; `false` sends none */
  idempotencyHeader?: string | false;
}

const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+/i;

/** Whether a base URL is absolute (a scheme and a host). */
export function isAbsoluteUrl(url: string): boolean {
  return ABSOLUTE_URL.test(url);
}

/** The mistakes the options show before the document is read, as `INVALID_CONFIG`. */
export function checkOptions(options: OpenApiConnectorOptions): void {
  if (typeof options?.name !== "string" || options.name.trim() === "") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "openApiConnector needs a name: the sandbox global it becomes.",
    );
  }
  if (typeof options.document !== "string" && !isObject(options.document)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${options.name}" needs a document: an OpenAPI or Swagger object, a URL or a path.`,
    );
  }
  if (options.fetch !== undefined && typeof options.fetch !== "function") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${options.name}": fetch must be a function.`,
    );
  }
  if (options.lookup !== undefined && typeof options.lookup !== "function") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${options.name}": lookup must be a function.`,
    );
  }
  for (const [name, value] of Object.entries(options.limits ?? {})) {
    if (value === undefined) continue;
    const least = name === "redirects" ? 0 : 1;
    if (!(name in DEFAULT_LIMITS) || !Number.isSafeInteger(value) || (value as number) < least) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `openApiConnector "${options.name}": limits.${name} is not a limit (${Object.keys(DEFAULT_LIMITS).join(", ")}, each a whole number of at least 1, redirects at least 0).`,
      );
    }
  }
  if (options.baseUrl !== undefined && !isAbsoluteUrl(options.baseUrl)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${options.name}": baseUrl must be an absolute URL, not "${options.baseUrl}".`,
    );
  }
}
