import type { ResponseLike } from "./platform.ts";

/**
 * What a call resolves to: parsed JSON for JSON media types, text for `text/*`, XML and forms, bytes
 * for anything else; `null` when the response has no body (204, or an empty 201).
 */
export async function readResponse(response: ResponseLike): Promise<unknown> {
  const type =
    (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (response.status === 204 || response.status === 205) return null;
  if (
    type === "" ||
    /[/+]json$/.test(type) ||
    type.startsWith("text/") ||
    /[/+]xml$/.test(type) ||
    type === "application/x-www-form-urlencoded"
  ) {
    const text = await response.text();
    if (text === "") return null;
    if (type === "" || /[/+]json$/.test(type)) {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    }
    return text;
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  return bytes.length === 0 ? null : bytes;
}
