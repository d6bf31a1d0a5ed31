export {
  type Catalog,
  type CatalogOptions,
  createCatalog,
  type DescribeOutput,
  type EmbedFunction,
  MAX_EMBEDDED_SNIPPETS,
  MAX_QUERY_LENGTH,
  MAX_QUERY_TERMS,
  MAX_TARGET_LENGTH,
  type ResolvedMethod,
  type SearchOutput,
  type SnippetDefinition,
} from "./catalog.ts";
export {
  CODEMODE_SDK_DECLARATION,
  type ConnectorDeclarations,
  type ConnectorDefinition,
  type DeclaredMethod,
  type MethodDefinition,
} from "./declarations.ts";
export {
  createNameMap,
  type NameMap,
  SANDBOX_GLOBALS,
  toIdentifier,
  toPascalCase,
} from "./identifier.ts";
export {
  type JsonSchema,
  type JsonSchemaObject,
  type SchemaSide,
  toJsonSchema,
} from "./json-schema.ts";
export { METADATA_LIMITS } from "./metadata-limits.ts";
export { normalizeCode } from "./normalize-code.ts";
export {
  DEFAULT_SEARCH_WEIGHTS,
  type SearchFields,
  SearchIndex,
  type SearchWeights,
  type SearchWork,
} from "./search-index.ts";
export { createToolDescription, type DescribedConnector } from "./tool-description.ts";
export { jsonSchemaToTypeScript, TypeWriter } from "./type-writer.ts";
export { TypegenError, type TypegenErrorCode } from "./typegen-error.ts";
