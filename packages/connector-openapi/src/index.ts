export { buildRequest, type PreparedRequest } from "./build-request.ts";
export type { Credential, Secret } from "./credentials.ts";
export { BODY_EXCERPT_LENGTH, HttpError } from "./http-error.ts";
export {
  type OpenApiClient,
  type OpenApiConnector,
  type OpenApiConnectorOptions,
  type OperationInfo,
  type OperationOptions,
  openApiConnector,
} from "./openapi-connector.ts";
export type { OpenApiDocument } from "./openapi-document.ts";
export type { FetchInit, FetchLike, ResponseLike } from "./platform.ts";
export type { RawRequest } from "./raw-request.ts";
