// What a person is shown (an approval question, an approval request's reason) shows every
// character: those that cannot be seen, or that change how the text around them reads, are written
// as \u escapes.

/**
 * Characters a person cannot see or that reorder what they read: controls (C0, DEL, C1), format
 * characters (bidi embeddings, overrides, isolates and marks, the Arabic letter mark, zero-width
 * space and joiners, the word joiner, the byte order mark, the soft hyphen, tags), line and
 * paragraph separators, lone surrogates, what Unicode says to render as nothing (variation
 * selectors, the combining grapheme joiner, the Hangul fillers, ...), the braille blank and every
 * space but U+0020.
 */
const UNSEEN_CLASS =
  "[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}\\p{Default_Ignorable_Code_Point}\\u00A0\\u1680\\u2000-\\u200A\\u202F\\u205F\\u2800\\u3000]";
const UNSEEN = new RegExp(UNSEEN_CLASS, "gu");
const FIRST_UNSEEN = new RegExp(UNSEEN_CLASS, "u");

const unicodeEscape = (character: string): string => {
  let escaped = "";
  for (let index = 0; index < character.length; index++) {
    escaped += `\\u${character.charCodeAt(index).toString(16).padStart(4, "0")}`;
  }
  return escaped;
};

/**
 * `text` with every character a person cannot see written as `\uXXXX` (each UTF-16 unit, so inside
 * JSON text the escape means the same character): what a person reads is what runs.
 */
export const visibleText = (text: string): string => escapeUnseen(text, unicodeEscape);

/** `text` with every character `visibleText` escapes replaced by what `rewrite` makes of it. */
export const escapeUnseen = (text: string, rewrite: (character: string) => string): string =>
  text.replace(UNSEEN, rewrite);

/** Where the first character `visibleText` would escape is in `text`, or -1 when none is. */
export function firstUnseen(text: string): number {
  return FIRST_UNSEEN.exec(text)?.index ?? -1;
}
