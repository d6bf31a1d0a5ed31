/** What TypeScript reads as the end of a line, which ends a `//` comment: U+2028 and U+2029 too. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;
/** What ends an unclosed string literal (U+2028 and U+2029 may stand in one since ES2019). */
const STRING_BREAK = /[\n\r]/;

/**
 * The parts of a declaration file that are code: comments and string literals are left out, read
 * the way TypeScript's scanner reads them (a `//` comment ends at any line break, U+2028 and U+2029
 * included; a string at its quote or a line feed; a block comment at the first `*​/`). Text from a
 * server that escapes its comment or its string shows up here.
 */
export function codeOutsideCommentsAndStrings(text: string): string {
  let code = "";
  let index = 0;
  while (index < text.length) {
    const character = text[index] as string;
    const next = text[index + 1];
    if (character === "/" && next === "/") {
      index += 2;
      while (index < text.length && !LINE_BREAK.test(text[index] as string)) index++;
    } else if (character === "/" && next === "*") {
      const end = text.indexOf("*/", index + 2);
      index = end < 0 ? text.length : end + 2;
      code += " ";
    } else if (character === '"' || character === "'" || character === "`") {
      index++;
      while (index < text.length) {
        const inside = text[index] as string;
        if (inside === "\\") index += 2;
        else if (inside === character) break;
        else if (character !== "`" && STRING_BREAK.test(inside)) break;
        else index++;
      }
      index++;
      code += '""';
    } else {
      code += character;
      index++;
    }
  }
  return code;
}
