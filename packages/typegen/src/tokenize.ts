/** Words that carry no meaning for finding a method. */
const STOPWORDS = new Set(
  (
    "a an the of for to in on at by with from into onto about as and or nor but if then than so " +
    "my me i we our us you your yours he she his her they them their its it this that these those " +
    "is are was were be been being am do does did done can could would should will shall may might must " +
    "please want wants wanted like would let lets there here what which who whom whose how when where " +
    "why whether just also some any very too going gonna via per each every one ones thing things " +
    "have has had having having up out over under again once not no yes " +
    // the padding of a request in conversation: "I need to…", "can you just…", "…now, thanks"
    "need needs needed hey hi hello thanks thank okay ok sure really actually already still anymore " +
    "currently now yet though although because since while however maybe perhaps somehow something anything"
  ).split(" "),
);

/** Possessives and contractions: "customer's" is "customer", "doesn't" is "does not". */
const CONTRACTION = /(\p{L})['’](?:s|re|ve|ll|d|m)\b/gu;
const NEGATION = /(\p{L})n['’]t\b/gu;

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

/** Forms no suffix rule reaches. */
const IRREGULAR = new Map([
  ["paid", "pay"],
  ["added", "add"],
  ["people", "person"],
  ["children", "child"],
  ["men", "man"],
  ["women", "woman"],
  ["indices", "index"],
  ["analyses", "analysis"],
]);

/**
 * A light English stemmer: enough to conflate the forms API text uses (issues/issue, created/create/
 * creating/creation, repositories/repository, branches/branch, authorization/authorize,
 * deletion/delete, validation/validate, copied/copy, monthly/month), predictable and fast.
 */
export function stem(word: string): string {
  let w = IRREGULAR.get(word) ?? word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("uses") && w.length > 5) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  let suffixed = true;
  if (w.endsWith("ation") && w.length > 7)
    // authorization → authoriz(e), configuration → configur(e); creation → creat(e)
    w = w.length - 5 >= 5 ? w.slice(0, -5) : w.slice(0, -3);
  else if (w.endsWith("tion") && w.length > 7) w = w.slice(0, -3);
  else if (w.endsWith("ied") && w.length > 5) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 5) w = w.slice(0, -2);
  else if (w.endsWith("ly") && w.length > 6 && !w.endsWith("ply")) w = w.slice(0, -2);
  else suffixed = false;
  if (suffixed && w.endsWith("ell")) w = w.slice(0, -1);
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w) && w.length > 3)
    w = w.slice(0, -1);
  // -ate verbs meet their -ation nouns: validate/validation → valid, generate/generation → gener
  if (w.endsWith("ate") && w.length - 3 >= 5) w = w.slice(0, -3);
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** Words of `text` as search terms: split, stop words dropped, stemmed. */
export function terms(text: string): string[] {
  return splitWords(text.replace(CONTRACTION, "$1").replace(NEGATION, "$1 not"))
    .filter((word) => !STOPWORDS.has(word))
    .map(stem);
}
