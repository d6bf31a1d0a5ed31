import { fromUtf8 } from "./platform.ts";
import type { Redactor } from "./redactor.ts";

/**
 * What a call resolves to, from the response's status, media type and body bytes, cleared of every
 * secret the redactor knows: parsed JSON for JSON media types, text for `text/*`, XML and forms,
 * bytes for anything else; `null` when the response has no body (204, 205, or an empty body).
 */
export function decodeResponse(
  status: number,
  contentType: string | null,
  bytes: Uint8Array,
  redactor: Redactor,
): unknown {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (status === 204 || status === 205 || bytes.length === 0) return null;
  const json = type === "" || /[/+]json$/.test(type);
  if (
    json ||
    type.startsWith("text/") ||
    /[/+]xml$/.test(type) ||
    type === "application/x-www-form-urlencoded"
  ) {
    const text = fromUtf8(bytes);
    if (text === "") return null;
    if (json) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return redactor.text(text);
      }
      return redactor.json(value, text);
    }
    return redactor.text(text);
  }
  return redactor.bytes(bytes);
}
