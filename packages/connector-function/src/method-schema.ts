import type { JsonSchemaDocument, TypedJsonSchema } from "./json-schema.ts";

/**
 * The schemas a method takes and the types they give its code. A schema is one of: a Standard Schema
 * (Zod, Valibot, ArkType… anything with `~standard.validate`; the connector also needs its JSON
 * Schema, so Zod 3 type-checks but is refused), the AI SDK's `jsonSchema()` object, or JSON Schema
 * (an object or a boolean), typed with `jsonSchema<T>()` or else `unknown`.
 */

/** The Standard Schema interface (standardschema.dev), as far as a method needs it. */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
      options?: { readonly libraryOptions?: Record<string, unknown> | undefined } | undefined,
    ) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** What a Standard Schema's `validate` answers: the value it made, or the issues it found. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };

/** The AI SDK's schema object (`jsonSchema<T>()`, `zodSchema()`): JSON Schema with a type. */
export interface AiSdkSchema<T = unknown> {
  readonly _type: T;
  readonly jsonSchema: unknown;
}

/** What `inputSchema` and `outputSchema` accept. */
export type MethodSchema = StandardSchema | AiSdkSchema | JsonSchemaDocument | boolean;

/**
 * The type a schema gives the code: a Standard Schema's output type (what `validate` makes, so
 * Zod's defaults are filled in), an AI SDK schema's type, `jsonSchema<T>()`'s `T`, else `unknown`.
 */
export type InferSchema<S> = S extends { readonly "~standard": { readonly types?: infer Types } }
  ? NonNullable<Types> extends { readonly output: infer Output }
    ? Output
    : unknown
  : S extends AiSdkSchema<infer T>
    ? T
    : S extends TypedJsonSchema<infer T>
      ? T
      : unknown;
