import { cutAt, METADATA_LIMITS } from "./metadata-limits.ts";
import { TypegenError } from "./typegen-error.ts";

/** Words that cannot name a sandbox global or a method: JavaScript's reserved and strict-mode words. */
const RESERVED_WORDS = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false " +
    "finally for function if import in instanceof new null return super switch this throw true try " +
    "typeof var void while with yield let static implements interface package private protected public " +
    "await arguments eval undefined NaN Infinity"
  ).split(" "),
);

/** Property names that would reach `Object.prototype` machinery if a method were called that. */
const PROTOTYPE_NAMES = new Set([
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "toLocaleString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "then",
]);

/** Globals of every sandbox; a connector may not shadow them. */
export const SANDBOX_GLOBALS: ReadonlySet<string> = new Set(
  (
    "codemode console globalThis self window Object Function Array Number String Boolean Symbol BigInt " +
    "Math JSON Date RegExp Error TypeError RangeError SyntaxError ReferenceError EvalError URIError " +
    "AggregateError Promise Proxy Reflect Map Set WeakMap WeakSet WeakRef FinalizationRegistry ArrayBuffer " +
    "SharedArrayBuffer DataView Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array " +
    "Uint32Array Float32Array Float64Array BigInt64Array BigUint64Array Atomics Intl TextEncoder TextDecoder " +
    "URL URLSearchParams structuredClone setTimeout clearTimeout setInterval clearInterval queueMicrotask " +
    "atob btoa fetch crypto parseInt parseFloat isNaN isFinite encodeURI encodeURIComponent decodeURI " +
    "decodeURIComponent escape unescape"
  ).split(" "),
);

const SEPARATORS = /[^\p{ID_Continue}$]+/gu;

/** FNV-1a over the UTF-16 units of `text`, as 8 hexadecimal digits. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value = Math.imul(value ^ text.charCodeAt(index), 0x01000193) >>> 0;
  }
  return value.toString(16).padStart(8, "0");
}

/**
 * Turns a tool or connector name into a valid JavaScript identifier that keeps its word boundaries:
 * `issues/create` → `issues_create`, `get-commit` → `get_commit`, `2fa` → `_2fa`, `delete` → `delete_`.
 * Letters of any script are kept; every run of other characters becomes one `_`. An identifier longer
 * than `METADATA_LIMITS.nameLength` is cut to it, ending with `_` and a hash of the whole name, so
 * two long names that share their start stay apart.
 */
export function toIdentifier(name: string): string {
  let identifier = name.split(SEPARATORS).filter(Boolean).join("_");
  if (identifier === "") return "_";
  if (!/^[\p{ID_Start}$_]/u.test(identifier)) identifier = `_${identifier}`;
  if (RESERVED_WORDS.has(identifier) || PROTOTYPE_NAMES.has(identifier))
    identifier = `${identifier}_`;
  const limit = METADATA_LIMITS.nameLength;
  if (identifier.length > limit) identifier = `${cutAt(identifier, limit - 9)}_${hash(name)}`;
  return identifier;
}

/**
 * `list_pull-requests` → `ListPullRequests`; used for type names. Letters and digits make words;
 * numbers that are no digits (`½`, `²`, `①`) cannot stand in an identifier and separate them.
 */
export function toPascalCase(name: string): string {
  const words = name
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2")
    .split(/[^\p{L}\p{Nd}\p{Nl}]+/u)
    .filter(Boolean);
  const pascal = words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join("");
  if (pascal === "") return "T";
  return /^\p{N}/u.test(pascal) ? `T${pascal}` : pascal;
}

/** A two-way map between original names and the identifiers they became. */
export interface NameMap {
  /** original name → identifier */
  readonly identifiers: ReadonlyMap<string, string>;
  /** identifier → original name */
  readonly originals: ReadonlyMap<string, string>;
}

/**
 * Maps every name to an identifier and back. Two names that become the same identifier are a
 * configuration error naming both originals, so one of them can be renamed.
 */
export function createNameMap(
  names: Iterable<string>,
  options: { kind: string; reserved?: ReadonlySet<string> } = { kind: "name" },
): NameMap {
  const identifiers = new Map<string, string>();
  const originals = new Map<string, string>();
  for (const name of names) {
    if (identifiers.has(name)) {
      throw new TypegenError("INVALID_NAME", `Duplicate ${options.kind} "${name}".`, { name });
    }
    const identifier = toIdentifier(name);
    if (options.reserved?.has(identifier)) {
      throw new TypegenError(
        "INVALID_NAME",
        `The ${options.kind} "${name}" would shadow the sandbox global "${identifier}"; choose another name.`,
        { name, identifier },
      );
    }
    const other = originals.get(identifier);
    if (other !== undefined) {
      throw new TypegenError(
        "INVALID_NAME",
        `The ${options.kind}s "${other}" and "${name}" both become the identifier "${identifier}"; rename one of them.`,
        { names: [other, name], identifier },
      );
    }
    identifiers.set(name, identifier);
    originals.set(identifier, name);
  }
  return { identifiers, originals };
}

/** Hands out unique type names in one declaration scope, in the order they are asked for. */
export class NameAllocator {
  /** each name taken, with the scope (a connector) that took it; globals have none */
  private readonly used = new Map<string, string | undefined>(
    TYPE_SCOPE_NAMES.map((name) => [name, undefined]),
  );
  /** the next suffix to try for each base name that has needed one */
  private readonly suffixes = new Map<string, number>();

  /**
   * Claims `preferred`. When another scope (another connector, or a global) has it, the scope's own
   * name comes first (`CatalogItem` beside the tracker's `Item`); then `preferred2`, `preferred3`, ….
   */
  allocate(preferred: string, scope?: string): string {
    // a type name comes from a title or a definition's key: no longer than a method's name
    const wanted = cutAt(preferred, METADATA_LIMITS.nameLength);
    let base = wanted;
    if (scope && this.used.has(base) && this.used.get(base) !== scope) base = `${scope}${wanted}`;
    let name = base;
    // each base remembers the suffix it reached, so many types wanting one name cost linear time
    let suffix = this.suffixes.get(base) ?? 2;
    while (this.used.has(name)) name = `${base}${suffix++}`;
    if (name !== base) this.suffixes.set(base, suffix);
    this.used.set(name, scope);
    return name;
  }
}

/**
 * Global type names a generated declaration must not redeclare: the sandbox globals, the types of
 * the ES2022 lib the declarations compile against (a `type PropertyKey` or `type Generator` would be
 * a duplicate identifier), common platform types, the SDK's own and TypeScript's keywords.
 */
const TYPE_SCOPE_NAMES = [
  ...SANDBOX_GLOBALS,
  ..."Record Partial Required Readonly Pick Omit Exclude Extract NonNullable Parameters ReturnType Awaited PromiseLike ArrayLike Iterable Iterator AsyncIterable Event EventTarget Request Response Headers Blob File FormData ReadableStream WritableStream AbortSignal AbortController Element Node Document Text Comment Storage Location Navigator History SearchOutput DescribeOutput unknown never object string number boolean symbol bigint any void null".split(
    " ",
  ),
  ...(
    "AggregateErrorConstructor ArrayBufferConstructor ArrayBufferLike ArrayBufferTypes ArrayBufferView " +
    "ArrayConstructor ArrayIterator AsyncGenerator AsyncGeneratorFunction AsyncGeneratorFunctionConstructor " +
    "AsyncIterableIterator AsyncIterator AsyncIteratorObject BigInt64ArrayConstructor BigIntConstructor " +
    "BigIntToLocaleStringOptions BigUint64ArrayConstructor BooleanConstructor BuiltinIteratorReturn " +
    "CallableFunction Capitalize ClassAccessorDecoratorContext ClassAccessorDecoratorResult " +
    "ClassAccessorDecoratorTarget ClassDecorator ClassDecoratorContext ClassFieldDecoratorContext " +
    "ClassGetterDecoratorContext ClassMemberDecoratorContext ClassMethodDecoratorContext " +
    "ClassSetterDecoratorContext ConcatArray ConstructorParameters DataViewConstructor DateConstructor " +
    "DecoratorContext DecoratorMetadata DecoratorMetadataObject ErrorConstructor ErrorOptions " +
    "EvalErrorConstructor FinalizationRegistryConstructor FlatArray Float32ArrayConstructor " +
    "Float64ArrayConstructor FunctionConstructor Generator GeneratorFunction GeneratorFunctionConstructor " +
    "IArguments ImportAssertions ImportAttributes ImportCallOptions ImportMeta InstanceType " +
    "Int16ArrayConstructor Int32ArrayConstructor Int8ArrayConstructor IterableIterator IteratorObject " +
    "IteratorResult IteratorReturnResult IteratorYieldResult Lowercase MapConstructor MapIterator " +
    "MethodDecorator NewableFunction NoInfer NumberConstructor ObjectConstructor OmitThisParameter " +
    "ParameterDecorator PromiseConstructor PromiseConstructorLike PromiseFulfilledResult " +
    "PromiseRejectedResult PromiseSettledResult PropertyDecorator PropertyDescriptor PropertyDescriptorMap " +
    "PropertyKey ProxyConstructor ProxyHandler RangeErrorConstructor ReadonlyArray ReadonlyMap ReadonlySet " +
    "ReferenceErrorConstructor RegExpConstructor RegExpExecArray RegExpIndicesArray RegExpMatchArray " +
    "RegExpStringIterator SetConstructor SetIterator SharedArrayBufferConstructor StringConstructor " +
    "StringIterator SymbolConstructor SyntaxErrorConstructor TemplateStringsArray ThisParameterType " +
    "ThisType TypeErrorConstructor TypedPropertyDescriptor URIErrorConstructor Uint16ArrayConstructor " +
    "Uint32ArrayConstructor Uint8ArrayConstructor Uint8ClampedArrayConstructor Uncapitalize Uppercase " +
    "WeakKey WeakKeyTypes WeakMapConstructor WeakRefConstructor WeakSetConstructor"
  ).split(" "),
];
