/**
 * The name of a sandbox global an executor defines when its sandbox cannot compile code at run time
 * (workerd forbids `eval`): `(source, input) => Promise<result>` runs a saved program's source (one
 * function expression) with the same namespaces in the same pass, and returns what it returns.
 */
export const SANDBOX_EVALUATE_HOOK = "__codemodeEvaluate";

/**
 * The sandbox side of the `codemode` global: `step` runs its closure in the sandbox and has the host
 * record or replay the value; `run` evaluates a saved snippet in the same pass, so its calls join
 * the run's numbering. The host side provides `__step_decide`, `__step_record` and `__snippet`.
 */
export const SANDBOX_PRELUDE = `{
const evaluateHook = globalThis.${SANDBOX_EVALUATE_HOOK};
codemode.step = async (name, fn) => {
  if (typeof name !== "string" || typeof fn !== "function") {
    throw new TypeError("codemode.step(name, fn) needs a name and a function.");
  }
  const decision = await codemode.__step_decide({ name });
  if (decision.replay) return decision.value;
  const value = await fn();
  await codemode.__step_record({ seq: decision.seq, value });
  return value;
};
codemode.run = async (name, input) => {
  const snippet = await codemode.__snippet({ name });
  if (snippet.error) return { error: snippet.error };
  if (typeof evaluateHook === "function") return await evaluateHook(snippet.code, input);
  const program = (0, eval)("(" + snippet.code + ")");
  return await program(input);
};
}`;
