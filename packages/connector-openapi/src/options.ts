import { type ApprovalRule, type CallContext, CodemodeError } from "@codemode/core";
import type { Credential } from "./credentials.ts";
import { isObject, type OpenApiDocument } from "./openapi-document.ts";
import type { FetchLike } from "./platform.ts";
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
  /** let the document (and its `$ref`s) come from loopback and private addresses; default false */
  internalUrls?: boolean;
  /** which operations need approval; default: every method but GET, HEAD and OPTIONS */
  requiresApproval?: (operation: OperationInfo) => boolean;
  /** per-operation options, by method name or operationId */
  operations?: { [Name in keyof Operations]?: OperationOptions<Operations[Name], Operations> };
  /** which operations become methods (default: all) */
  include?: (operation: OperationInfo) => boolean;
  /** add the `request` method for undeclared calls (approval unless GET, HEAD or OPTIONS); default true */
  request?: boolean;
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
  if (options.baseUrl !== undefined && !isAbsoluteUrl(options.baseUrl)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${options.name}": baseUrl must be an absolute URL, not "${options.baseUrl}".`,
    );
  }
}
