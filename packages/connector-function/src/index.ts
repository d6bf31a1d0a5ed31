export { type FunctionConnectorOptions, functionConnector } from "./function-connector.ts";
export type { FunctionMethod, MethodSettings, TypedMethods } from "./function-method.ts";
export { type JsonSchemaDocument, jsonSchema, type TypedJsonSchema } from "./json-schema.ts";
export type {
  AiSdkSchema,
  InferSchema,
  MethodSchema,
  StandardResult,
  StandardSchema,
} from "./method-schema.ts";
