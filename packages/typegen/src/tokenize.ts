/** Words that carry no meaning for finding a method. */
const STOPWORDS = new Set(
  (
    "a an the of for to in on at by with from into onto about as and or nor but if then than so " +
    "my me i we our us you your yours he she his her they them their its it this that these those " +
    "is are was were be been being am do does did done can could would should will shall may might must " +
    "please want wants wanted like would let lets there here what which who whom whose how when where " +
    "why whether just also some any very too going gonna via per each every one ones thing things " +
    "have has had having having up out over under again once not no yes"
  ).split(" "),
);

/**
 * Splits any identifier or sentence into lower-case words: camelCase and PascalCase (`getHTTPResponse`
 * → get http response), snake_case, kebab-case, slashes, dots, `{path}` braces and punctuation.
 */
export function splitWords(text: string): string[] {
  return text
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * A light English stemmer: enough to conflate the forms API text uses (issues/issue, created/create/
 * creating/creation, repositories/repository, branches/branch), predictable and fast.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("uses") && w.length > 5) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ation") && w.length > 7) w = w.slice(0, -3);
  else if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 5) w = w.slice(0, -2);
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w) && w.length > 3)
    w = w.slice(0, -1);
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** Words of `text` as search terms: split, stop words dropped, stemmed. */
export function terms(text: string): string[] {
  return splitWords(text)
    .filter((word) => !STOPWORDS.has(word))
    .map(stem);
}
