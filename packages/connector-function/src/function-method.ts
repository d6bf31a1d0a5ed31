import type { ApprovalRule, CallContext, ReplayPolicy } from "@codemode/core";
import type { InferSchema, MethodSchema } from "./method-schema.ts";

/** What a method is besides its schemas and functions. */
export interface MethodSettings {
  description?: string;
  /**
   * a person approves each call: the run pauses there until `runtime.approve`; a function decides
   * per call from the input as the model sent it (on the host, before the call is recorded and
   * before the input is validated, so it is `unknown`)
   */
  requiresApproval?: boolean | ApprovalRule;
  /** the result comes from outside (a client, a long job) through `runtime.resolve`; no `execute` */
  deferred?: boolean;
  /** "record" (default): later passes replay the result; "reexecute": they call again */
  replay?: ReplayPolicy;
  /** the call fails with a catchable error after this long */
  timeoutMs?: number;
  /** extra words that name the method for search */
  keywords?: readonly string[];
}

/**
 * One method: a plain function with a schema for its input and, optionally, for its result.
 * `execute` and `revert` are methods here, so a function that declares a narrower parameter than
 * `unknown` fits (a record of methods built apart from `functionConnector`).
 */
export interface FunctionMethod<Input = unknown, Result = unknown> extends MethodSettings {
  /**
   * Zod, any Standard Schema, the AI SDK's `jsonSchema()`, or JSON Schema (typed with
   * `jsonSchema<T>()`, else `unknown`); the input is validated against it before `execute`
   */
  inputSchema?: MethodSchema;
  /** the same kinds; it types the result in the model's declarations and for `execute` and `revert` */
  outputSchema?: MethodSchema;
  /** the function, with the validated input (the schema's output: Zod defaults filled in) */
  execute?(input: Input, context: CallContext): Result | PromiseLike<Result>;
  /** undoes an applied call when the run is rolled back, from its input and recorded result */
  revert?(input: Input, result: Result, context: CallContext): void | PromiseLike<void>;
}

/**
 * `execute` and `revert` of a method whose schemas give `Input` and `Result`. Where a schema gives a
 * type, the function's parameter is that type, checked strictly; where none does (`unknown`), the
 * parameter may be declared narrower by hand, as with `FunctionMethod`.
 */
type MethodFunctions<Input, Result> = (unknown extends Input
  ? { execute?(input: Input, context: CallContext): Result | PromiseLike<Result> }
  : { execute?: (input: Input, context: CallContext) => Result | PromiseLike<Result> }) &
  (unknown extends Input | Result
    ? { revert?(input: Input, result: Result, context: CallContext): void | PromiseLike<void> }
    : {
        revert?: (input: Input, result: Result, context: CallContext) => void | PromiseLike<void>;
      });

/** `unknown` for a schema (so the schema keeps its own type), `MethodSchema` for anything else. */
type SchemaCheck<S> = [S] extends [MethodSchema | undefined] ? unknown : MethodSchema;

/**
 * The methods as `functionConnector` types them: each method's schemas, inferred one by one, type
 * its functions. When no method says anything the compiler can read before it types the functions
 * (only `execute` and `revert`, no schema), there is nothing to infer: they are `FunctionMethod`s.
 */
export type TypedMethods<Inputs, Outputs> = unknown extends Inputs
  ? Record<string, FunctionMethod>
  : { [K in keyof Inputs]: { inputSchema?: Inputs[K] } } & {
      [K in keyof Outputs]: { outputSchema?: Outputs[K] };
    } & {
      [K in keyof NoInfer<Inputs>]: MethodSettings &
        MethodFunctions<
          InferSchema<NoInfer<Inputs[K]>>,
          InferSchema<NoInfer<Outputs[K & keyof Outputs]>>
        > & {
          inputSchema?: SchemaCheck<NoInfer<Inputs[K]>>;
          outputSchema?: SchemaCheck<NoInfer<Outputs[K & keyof Outputs]>>;
        };
    };
