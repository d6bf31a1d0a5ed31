export type { Issue } from "./compile-schema.ts";
export {
  type FunctionConnectorOptions,
  type FunctionMethod,
  type FunctionMethodOptions,
  functionConnector,
  type TypedMethods,
} from "./function-connector.ts";
export { type JsonSchemaDocument, jsonSchema, type TypedJsonSchema } from "./json-schema.ts";
export type {
  AiSdkSchema,
  InferSchema,
  MethodSchema,
  StandardResult,
  StandardSchema,
} from "./method-schema.ts";
