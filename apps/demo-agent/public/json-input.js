// Reads a JSON input a person typed: empty means none; anything else must parse, or the person
// gets a readable message saying where it went wrong.

/** Characters an input may have. */
export const INPUT_LIMIT = 20_000;

/** `{ ok: true, value }` (value undefined when empty) or `{ ok: false, message }`. */
export function readJsonInput(text) {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, value: undefined };
  if (trimmed.length > INPUT_LIMIT) {
    return { ok: false, message: `The input is too long: at most ${INPUT_LIMIT} characters.` };
  }
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch (error) {
    return {
      ok: false,
      message: `The input is not valid JSON: ${error.message}. Write it as JSON, e.g. {"status": "todo"}, or leave it empty.`,
    };
  }
}
