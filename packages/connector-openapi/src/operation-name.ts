// The operation each method names (`ConnectorMethod.operation` in @codemode/core): the HTTP method,
// the base URL joined with the path template, and a digest of the request's form. Core runs a
// recorded call (waiting for approval, approved, in doubt) only while its method names the operation
// it was recorded and shown with, so a document read again that maps the method to another request
// (another path, a parameter moved to a header, another body type, other credentials) does not get
// a call a person approved for the old one.
import { escapeUnseen, MAX_OPERATION_LENGTH } from "@codemode/core";
import { sha256Hex } from "@codemode/core/internal";
import { type BodyWriting, bodyWriting } from "./build-request.ts";
import type { Credential } from "./credentials.ts";
import { isObject } from "./openapi-document.ts";
import type { OperationSpec, ParameterLocation } from "./operation-spec.ts";
import { utf8 } from "./platform.ts";
import type { CredentialChoice, DocumentSecurity, SecurityRequirement } from "./security.ts";

/** Hex characters of the digest an operation shows (128 bits). */
const FORM_DIGEST_LENGTH = 32;

/** A security scheme as the connector applies it; never a secret. */
interface SchemeForm {
  name: string;
  /** `bearer`, `basic`, `apiKey`, `unsupported`, or `undeclared` (no such scheme in the document) */
  type: string;
  in?: string;
  parameter?: string;
}

/** A credential a request carries, by what it is and where it goes; never its secret. */
export interface CredentialForm {
  type: Credential["type"];
  in?: string;
  name?: string;
  scheme?: string;
}

/** Which credentials go with an operation's requests, and the requirements they were chosen by. */
export interface CredentialsForm {
  /** the operation's (or the document's) `security` alternatives; null: none declared anywhere */
  requires: SchemeForm[][] | null;
  /** the credentials sent, in the order they are applied; null: the call is refused */
  sends: CredentialForm[] | null;
}

/** Everything an operation's request is built from besides the call's input. */
export interface RequestForm {
  method: string;
  /** the path template, `/tasks/{taskId}` */
  path: string;
  parameters: Array<{
    in: ParameterLocation;
    name: string;
    /** the input field that carries it */
    key: string;
    required: boolean;
    style: string;
    explode: boolean;
    /** sent as JSON text */
    json: boolean;
  }>;
  body: {
    key: string;
    contentType: string;
    required: boolean;
    writing: BodyWriting;
    encoding: Array<{ property: string; style?: string; explode?: boolean; contentType?: string }>;
  } | null;
  credentials: CredentialsForm;
}

/** An operation `include` leaves out: the escape hatch refuses requests that reach it. */
export interface ExcludedForm {
  method: string;
  path: string;
  offered: false;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** JSON with every object's keys sorted (`JSON.stringify`'s text otherwise): one description, one text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort(compare);
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What a credential is and where it goes, never its secret: all of it a request form depends on. */
export function credentialForm(credential: Credential): CredentialForm {
  return {
    type: credential.type,
    ...(credential.type === "apiKey" ? { in: credential.in, name: credential.name } : {}),
    ...(credential.scheme !== undefined ? { scheme: credential.scheme } : {}),
  };
}

/**
 * The credentials form of an operation under `requirements` (its own `security`; undefined: the
 * document's default), given the credentials `chooseCredentials` chose for it.
 */
export function credentialsForm(
  requirements: readonly SecurityRequirement[] | undefined,
  security: DocumentSecurity,
  choice: CredentialChoice,
): CredentialsForm {
  const scheme = (name: string): SchemeForm => {
    const declared = security.schemes.get(name);
    if (!declared) return { name, type: "undeclared" };
    return declared.type === "apiKey"
      ? { name, type: declared.type, in: declared.in, parameter: declared.name }
      : { name, type: declared.type };
  };
  const alternatives = security.declared ? (requirements ?? security.defaults ?? []) : undefined;
  return {
    // each alternative's schemes are needed together, so their order is not the document's to
    // change; the alternatives' order is (the first satisfied one is sent)
    requires:
      alternatives?.map((names) => [...names].sort(compare).map((name) => scheme(name))) ?? null,
    sends: choice.refusal === undefined ? choice.credentials.map(credentialForm) : null,
  };
}

/**
 * The request form of `operation`: where each parameter goes and how it is written, the body's
 * media type, encoding and writing, and the credentials. Sorted, so reordering the document's
 * parameters or encodings leaves it as it is. `allowReserved` is not in it: the connector always
 * percent-encodes, so the document's value changes nothing that is sent.
 */
export function requestForm(operation: OperationSpec, credentials: CredentialsForm): RequestForm {
  const body = operation.body;
  return {
    method: operation.method,
    path: operation.path,
    parameters: operation.parameters
      .map((parameter) => ({
        in: parameter.in,
        name: parameter.name,
        key: parameter.key,
        required: parameter.required,
        style: parameter.style,
        explode: parameter.explode,
        json: parameter.json,
      }))
      .sort((a, b) => compare(a.in, b.in) || compare(a.name, b.name) || compare(a.key, b.key)),
    body: body
      ? {
          key: body.key,
          contentType: body.contentType,
          required: body.required,
          writing: bodyWriting(body.contentType),
          encoding: Object.entries(body.encoding)
            .map(([property, encoding]) => ({ property, ...encoding }))
            .sort((a, b) => compare(a.property, b.property)),
        }
      : null,
    credentials,
  };
}

/** `text` cut in the middle (`…`) to at most `room` characters, never inside a surrogate pair. */
function fitted(text: string, room: number): string {
  if (text.length <= room) return text;
  const keep = room - 1;
  let head = text.slice(0, Math.ceil(keep / 2));
  let tail = text.slice(text.length - Math.floor(keep / 2));
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  if (/^[\uDC00-\uDFFF]/.test(tail)) tail = tail.slice(1);
  return `${head}…${tail}`;
}

/** A character as a URL sends it: its UTF-8 bytes percent-encoded (a lone surrogate as U+FFFD). */
const percentEncoded = (char: string): string =>
  [...utf8(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");

/**
 * A URL as one line of characters a person sees as they are: every character core's `visibleText`
 * would escape (controls, format characters such as bidi overrides, separators and spaces, what
 * renders as nothing, lone surrogates), and the plain space, percent-encoded as the URL parser sends
 * them in a path. Tabs and line breaks, which the parser drops instead, the connector refuses in a
 * path before sending (`checkRequest`).
 */
function visible(url: string): string {
  return escapeUnseen(url, percentEncoded).replaceAll(" ", "%20");
}

/**
 * `<what> <url> (request form <digest>)`: one line of visible characters within
 * `MAX_OPERATION_LENGTH` (checked by core's `operationProblem`), whatever the document holds. The
 * digest covers the URL as it is, so a URL shortened for the line still binds the whole of it.
 */
async function named(what: string, url: string, description: unknown): Promise<string> {
  const digest = (await sha256Hex(canonicalJson(description))).slice(0, FORM_DIGEST_LENGTH);
  const suffix = ` (request form ${digest})`;
  const room = MAX_OPERATION_LENGTH - what.length - 1 - suffix.length;
  return `${what} ${fitted(visible(url), room)}${suffix}`;
}

/**
 * The operation a typed method names: `POST https://api.example.com/v1/tasks/{id} (request form
 * <32 hex>)`, the method, `base` (no trailing slash) joined with the path template, and the first
 * 32 hex characters of the SHA-256 of the canonical JSON of the base URL and `form`.
 */
export function operationName(base: string, form: RequestForm): Promise<string> {
  return named(form.method, `${base}${form.path}`, { base, form });
}

/**
 * The operation the `request` escape hatch names: `HTTP <base> (request form <32 hex>)`, over every
 * operation's form (the hatch sends a request that reaches one on its terms) and the credentials an
 * undeclared request carries. A change to any of them changes it.
 */
export function escapeHatchOperationName(
  base: string,
  operations: ReadonlyArray<RequestForm | ExcludedForm>,
  undeclared: CredentialsForm,
): Promise<string> {
  // each operation as its canonical text, sorted: the document's order of paths is not part of it
  const sorted = operations.map(canonicalJson).sort(compare);
  return named("HTTP", base, { base, operations: sorted, undeclared });
}

/** The operations a connector's methods name. */
export interface OperationNames {
  /** each typed method's, by method name */
  methods: ReadonlyMap<string, string>;
  /** the escape hatch's, when it has one */
  escapeHatch: string | undefined;
}

/**
 * The operation every method names: each typed method's (`forms`), and, given what an undeclared
 * request carries (`undeclared`), the escape hatch's over the offered forms and the operations left
 * out (`excluded`).
 */
export async function operationNames(
  base: string,
  forms: ReadonlyMap<string, RequestForm>,
  excluded: readonly ExcludedForm[],
  undeclared: CredentialsForm | undefined,
): Promise<OperationNames> {
  const methods = new Map(
    await Promise.all(
      [...forms].map(async ([name, form]) => [name, await operationName(base, form)] as const),
    ),
  );
  const escapeHatch =
    undeclared === undefined
      ? undefined
      : await escapeHatchOperationName(base, [...forms.values(), ...excluded], undeclared);
  return { methods, escapeHatch };
}
