import type { JsonSchema, JsonSchemaObject } from "@codemode/typegen";
import type { SecurityRequirement } from "./security.ts";

/** Where a parameter goes in the request. */
export type ParameterLocation = "path" | "query" | "header" | "cookie";

/** One parameter of an operation, resolved, with how it is serialized. */
export interface ParameterSpec {
  /** the field of the method's input that carries it (its name, unless two locations share one) */
  key: string;
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: JsonSchema;
  /** OpenAPI 3 `style` (Swagger 2 `collectionFormat` is mapped onto it) */
  style: string;
  explode: boolean;
  /** the value is sent as JSON text (`content: { "application/json": … }`) */
  json: boolean;
}

/** How one property of a form body is encoded. */
export interface EncodingSpec {
  style?: string;
  explode?: boolean;
  contentType?: string;
}

/** The request body of an operation, in the one media type the connector sends. */
export interface BodySpec {
  /** the field of the method's input that carries it: `body`, or `requestBody` if a parameter is named so */
  key: string;
  contentType: string;
  required: boolean;
  schema: JsonSchema | undefined;
  encoding: Record<string, EncodingSpec>;
}

/** One operation of the document as the connector calls it. */
export interface OperationSpec {
  /** the method's name in the connector (a JavaScript identifier) */
  name: string;
  operationId: string | undefined;
  /** upper case: `GET`, `POST`, … */
  method: string;
  /** the path template, `/tasks/{taskId}` */
  path: string;
  parameters: ParameterSpec[];
  body: BodySpec | undefined;
  description: string;
  inputSchema: JsonSchemaObject;
  outputSchema: JsonSchema | undefined;
  tags: string[];
  /** the operation's own `security` alternatives; undefined when it has none (the document's apply) */
  security: readonly SecurityRequirement[] | undefined;
}
