export { buildRequest, type PreparedRequest } from "./build-request.ts";
export type { Credential, Secret } from "./credentials.ts";
export { BODY_EXCERPT_LENGTH, HTTP_ERROR_NOTE, HttpError } from "./http-error.ts";
export { type OpenApiConnector, openApiConnector } from "./openapi-connector.ts";
export type { OpenApiDocument } from "./openapi-document.ts";
export {
  DEFAULT_LIMITS,
  type EscapeHatchOptions,
  type InputOf,
  type OpenApiClient,
  type OpenApiConnectorOptions,
  type OpenApiLimits,
  type OperationInfo,
  type OperationOptions,
  type OutputOf,
  type UntypedOperations,
} from "./options.ts";
export type { BodyReaderLike, FetchInit, FetchLike, Lookup, ResponseLike } from "./platform.ts";
export { MAX_PATH_LENGTH, type RawRequest } from "./raw-request.ts";
