export { buildRequest, type PreparedRequest } from "./build-request.ts";
export type { Credential, Secret } from "./credentials.ts";
export { BODY_EXCERPT_LENGTH, HTTP_ERROR_NOTE, HttpError } from "./http-error.ts";
export { type OpenApiConnector, openApiConnector } from "./openapi-connector.ts";
export type { OpenApiDocument } from "./openapi-document.ts";
export type {
  InputOf,
  OpenApiClient,
  OpenApiConnectorOptions,
  OperationInfo,
  OperationOptions,
  OutputOf,
  UntypedOperations,
} from "./options.ts";
export type { FetchInit, FetchLike, ResponseLike } from "./platform.ts";
export { MAX_PATH_LENGTH, type RawRequest } from "./raw-request.ts";
