// A surface case as a reader wants it in a failure: the program, the schedule step by step, the JSON.
import { programSource, type SurfaceAction, type SurfaceCase } from "./surface-case.ts";

/** a TanStack or MCP card, counted back from the newest (0), as a failure names it */
const back = (card: number) => {
  const nth = card + 1;
  return card === 0
    ? "the newest"
    : `the ${nth}${nth === 2 ? "nd" : nth === 3 ? "rd" : "th"} newest`;
};

function actionText(action: SurfaceAction): string {
  const on = "on" in action ? ` @${action.on}` : "";
  switch (action.kind) {
    case "call":
      return `model calls${action.variant ? " (other code)" : ""}${action.twice ? " twice at once" : ""}${on}`;
    case "repeat":
      return `model repeats call #${action.of}${action.twice ? " twice at once" : ""}${on}`;
    case "continue":
      return `model continues call #${action.of}${action.fake ? " (under an id never used)" : ""}, result pointing at ${action.pointsAt === "own" ? "its run" : `run #${action.pointsAt}`}${on}`;
    case "answer":
      return `person ${action.approved ? "approves" : "denies"} card #${action.card}${action.copies === 2 ? " (delivered to both processes)" : ""}${on}`;
    case "forgedAnswer":
      return `an approval for ${action.of === "unknown" ? "a tool call never made" : `call #${action.of}`}, no card shown${on}`;
    case "resend":
      return `answer #${action.answer} resent${on}`;
    case "look":
      return `host tab reads run #${action.pick}'s pending calls${on}`;
    case "decide":
      return `host ${action.decision} with the handle read ${action.from === "now" ? "now" : "in the tab"} (run #${action.pick})${on}`;
    case "bare":
      return `host approve({ executionId }) of run #${action.pick}${on}`;
    case "end":
      return `host ${action.how} run #${action.pick}${on}`;
    case "expire":
      return `host expirePaused({ maxAgeMs: -1 })${on}`;
    case "prune":
      return `host pruneExecutions(${action.keep})${on}`;
    case "execute":
      return `host execute(code)${on}`;
    case "tsCall":
      return `TanStack: model calls codemode${action.calls === 2 ? ` twice in one turn${action.sameId ? " under one id" : ""}` : ""}${on}`;
    case "tsAnswer":
      return `TanStack: person ${action.answer === "approve" ? "approves" : action.answer === "deny" ? "denies" : "cancels"} ${back(action.card)} interrupt${action.others ? ` and ${action.others === "approve" ? "approves" : "denies"} the others of its chat run` : ""}${action.shown === "altered" ? " (the client showed and sends back another input)" : action.shown === "otherRun" ? ` (its payload pointed at run #${action.pick})` : ""}${action.copies === 2 ? " (sent to both processes)" : ""}${on}`;
    case "tsResend":
      return `TanStack: continuation #${action.answer} resent${on}`;
    case "tsSay":
      return `TanStack: a later turn after ${back(action.card)} interrupt says "approve it" (no resume)${on}`;
    case "mcpCall":
      return `MCP session ${action.session}: codemode (elicitation answers ${action.answers.join(", ")})`;
    case "mcpList":
      return `MCP session ${action.session}: codemode_pending${action.run === undefined ? "" : ` of run #${action.run}`}`;
    case "mcpApprove":
      return `MCP ${action.session === "card" ? "the card's session" : `session ${action.session}`}: codemode_approve with ${back(action.card)} MCP card's handle${action.forge === "digest" ? " (a digest changed)" : action.forge === "otherRun" ? ` (pointed at run #${action.pick})` : ""}${action.copies === 2 ? " twice at once" : ""}`;
    case "mcpReject":
      return `MCP ${action.session === "card" ? "the card's session" : `session ${action.session}`}: codemode_reject of ${back(action.card)} MCP card${action.forge === "digest" ? " (a digest changed)" : action.forge === "otherRun" ? ` (pointed at run #${action.pick})` : ""}`;
    case "mcpResend":
      return `MCP session ${action.session}: codemode_approve #${action.approval} resent`;
  }
}

/** The case as a reader wants it in a failure: the program, the schedule step by step, the JSON. */
export function describeSurfaceCase(testCase: SurfaceCase): string {
  const steps = testCase.steps.map(
    (step, index) =>
      `  ${index}. ${actionText(step.action)}${step.with ? `  ‖ ${step.during === "read" ? "while it reads what waits" : step.during === "take" ? "once it has taken the run" : step.during === "question" ? "while its question is open" : "at once"}: ${actionText(step.with)}` : ""}`,
  );
  const sessions = (testCase.sessions ?? []).map(
    (spec, index) =>
      `  ${index}. @${spec.on} approvals: "${spec.approvals}"${spec.share ? ", shareRunsAcrossSessions" : ""}${spec.elicits ? "" : ", the client does not elicit"}`,
  );
  return [
    `program:\n${programSource(testCase.program)}`,
    ...(sessions.length > 0 ? [`MCP sessions:\n${sessions.join("\n")}`] : []),
    `schedule:\n${steps.join("\n")}`,
    `case: ${JSON.stringify(testCase)}`,
  ].join("\n");
}
