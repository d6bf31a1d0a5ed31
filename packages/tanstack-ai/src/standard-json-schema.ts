// A Standard Schema that also exports its JSON Schema (what TanStack AI asks of interrupt
// schemas), from a JSON Schema and a check that names the first problem it finds.

/** A Standard Schema (version 1) with a JSON Schema converter, typed as `T`. */
export interface StandardJsonSchema<T> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: "codemode";
    readonly validate: (
      value: unknown,
    ) => { readonly value: T } | { readonly issues: ReadonlyArray<{ readonly message: string }> };
    readonly types?: { readonly input: T; readonly output: T };
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/**
 * `check` returns a message for a value that does not fit, or undefined for one that does (which
 * `validate` then returns as it is). The JSON Schema is handed out as a fresh copy each time.
 */
export function standardJsonSchema<T>(
  schema: Record<string, unknown>,
  check: (value: unknown) => string | undefined,
): StandardJsonSchema<T> {
  const text = JSON.stringify(schema);
  const copy = () => JSON.parse(text) as Record<string, unknown>;
  return {
    "~standard": {
      version: 1,
      vendor: "codemode",
      validate(value) {
        const problem = check(value);
        return problem === undefined ? { value: value as T } : { issues: [{ message: problem }] };
      },
      jsonSchema: { input: copy, output: copy },
    },
  };
}
