import { utf8 } from "./platform.ts";

/** Shorter secrets are not cleared: replacing every "abc" would garble any text. */
export const MIN_SECRET_LENGTH = 4;
/** Secrets from token providers remembered per connector (the latest ones), beside the fixed ones. */
const REMEMBERED_SECRETS = 64;
const REDACTED = "[redacted]";

/**
 * The forms a secret takes when a server echoes it: as sent, percent-encoded (upper- and
 * lower-case hex, `+` for spaces), and JSON-escaped (also with `\/`, and with non-ASCII as `\u`
 * escapes), longest first. JSON bodies are parsed before they are cleared, so any escape there is
 * undone first; these forms cover text and bytes.
 */
function formsOf(secret: string): string[] {
  const percent = encodeURIComponent(secret);
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = new Set([
    secret,
    percent,
    percent.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    percent.replace(/%20/g, "+"),
    json,
    json.replace(/\//g, "\\/"),
    json.replace(
      /[\u007f-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ),
  ]);
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

function latin1(bytes: Uint8Array): string {
  let out = "";
  for (let index = 0; index < bytes.length; index += 8192) {
    out += String.fromCharCode(...bytes.subarray(index, index + 8192));
  }
  return out;
}

function fromLatin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

function replaceAll(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) {
    if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  return out;
}

/**
 * Clears the connector's credentials from everything a server sends back before the sandbox, the
 * journal or a message sees it: text, parsed JSON (keys and strings, at any depth) and bytes. It
 * knows the secrets written in the options and every secret a token provider returned (the
 * latest `REMEMBERED_SECRETS`). Time is linear in the body for each form of each secret.
 */
export class Redactor {
  readonly #fixed: string[] = [];
  readonly #remembered = new Set<string>();
  #forms: string[] | undefined;
  #byteForms: string[] | undefined;

  constructor(fixed: readonly string[] = []) {
    for (const secret of fixed) if (secret.length >= MIN_SECRET_LENGTH) this.#fixed.push(secret);
  }

  /** Remembers a secret a request carried (a token provider's answer). */
  add(secret: string): void {
    if (secret.length < MIN_SECRET_LENGTH || this.#fixed.includes(secret)) return;
    if (this.#remembered.has(secret)) return;
    this.#remembered.add(secret);
    if (this.#remembered.size > REMEMBERED_SECRETS) {
      this.#remembered.delete(this.#remembered.values().next().value as string);
    }
    this.#forms = undefined;
    this.#byteForms = undefined;
  }

  get #all(): string[] {
    this.#forms ??= [...this.#fixed, ...this.#remembered]
      .flatMap(formsOf)
      .sort((a, b) => b.length - a.length);
    return this.#forms;
  }

  /** `text` with every form of every secret replaced by `[redacted]`. */
  text(text: string): string {
    const forms = this.#all;
    return forms.length === 0 ? text : replaceAll(text, forms);
  }

  /** Bytes with every secret's UTF-8 forms replaced (the body may then change length). */
  bytes(bytes: Uint8Array): Uint8Array {
    const forms = this.#all;
    if (forms.length === 0) return bytes;
    this.#byteForms ??= forms.map((form) => latin1(utf8(form)));
    const text = latin1(bytes);
    const out = replaceAll(text, this.#byteForms);
    return out === text ? bytes : fromLatin1(out);
  }

  /**
   * An error body's text, cleared: JSON is parsed, cleared and written out again, so no escape
   * hides a secret; other text (an excerpt cut mid-JSON) has `\u` escapes of ASCII undone first.
   */
  errorText(text: string): string {
    if (this.#all.length === 0 || !text.includes("\\")) return this.text(text);
    try {
      return JSON.stringify(this.json(JSON.parse(text), text));
    } catch {
      return this.text(
        text.replace(/\\u00([2-7][0-9a-f])/gi, (_, hex: string) =>
          String.fromCharCode(Number.parseInt(hex, 16)),
        ),
      );
    }
  }

  /**
   * A value `JSON.parse` made from `source`, cleared in place: every string and every key. When the
   * source has no escape and no form of a secret, nothing in it can hold one, and it is not walked.
   */
  json(value: unknown, source: string): unknown {
    const forms = this.#all;
    if (forms.length === 0) return value;
    if (!source.includes("\\") && !forms.some((form) => source.includes(form))) return value;
    if (typeof value === "string") return this.text(value);
    if (typeof value !== "object" || value === null) return value;
    const stack: object[] = [value];
    while (stack.length > 0) {
      const node = stack.pop() as Record<string, unknown>;
      for (const key of Object.keys(node)) {
        const item = node[key];
        let next = item;
        if (typeof item === "string") next = this.text(item);
        else if (typeof item === "object" && item !== null) stack.push(item);
        const clean = Array.isArray(node) ? key : this.text(key);
        if (clean !== key) delete node[key];
        if (clean !== key || next !== item) {
          // defined, not assigned: a "__proto__" key from JSON.parse is an own property
          Object.defineProperty(node, clean, {
            value: next,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
      }
    }
    return value;
  }
}
