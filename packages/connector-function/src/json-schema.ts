/** Where `TypedJsonSchema` keeps its type; it exists only for the compiler. */
declare const schemaType: unique symbol;

/** A JSON Schema object: any object of keywords (`as const` ones too). */
export interface JsonSchemaDocument {
  readonly [keyword: string]: unknown;
}

/** A JSON Schema object with the type of the values it describes, made by `jsonSchema<T>()`. */
export type TypedJsonSchema<T> = JsonSchemaDocument & { readonly [schemaType]?: T };

/**
 * Marks a JSON Schema with the type of the values it describes, so that `execute` and `revert` are
 * typed (as the AI SDK's `jsonSchema<T>()` does). The schema is returned as it is; it is not checked
 * against `T`, and the input is still validated against the schema at run time.
 */
export function jsonSchema<T = unknown>(schema: JsonSchemaDocument): TypedJsonSchema<T> {
  return schema;
}
