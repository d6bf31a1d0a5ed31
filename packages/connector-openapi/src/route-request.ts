import type { ApprovalRule } from "@codemode/core";
import type { PreparedRequest } from "./build-request.ts";
import { checkRequest } from "./check-request.ts";
import type { OperationSpec } from "./operation-spec.ts";
import { buildRawRequest, READ_METHODS } from "./raw-request.ts";

/**
 * What the escape hatch does with a declared operation, as the connector's options decide it for
 * the typed method: "x" `include` leaves it out, "f" it runs at once, "g" it waits for a person
 * (its `requiresApproval` is true, or a rule: a rule written for the typed input is not given a
 * raw request to read, so such a request always waits).
 */
export type RouteDecision = "x" | "f" | "g";

/** The declared operation a method and path reach, with its decision; undefined when none. */
export type FindOperation = (
  method: string,
  path: string,
) => { operation: OperationSpec; decision: RouteDecision } | undefined;

/** Where one escape-hatch request goes. */
export type RequestRoute =
  /** a declared operation the connector offers: its approval and credentials apply */
  | { kind: "operation"; request: PreparedRequest; operation: OperationSpec; decision: "f" | "g" }
  /** a declared operation `include` leaves out: refused */
  | { kind: "excluded"; request: PreparedRequest; operation: OperationSpec }
  /** a path and method the document does not declare */
  | { kind: "undeclared"; request: PreparedRequest }
  /** not a request the connector sends (`error` says why) */
  | { kind: "invalid"; error: unknown };

/**
 * Reads an escape-hatch input into the request it sends and the declared operation it reaches,
 * the same way for the approval rule and for the call, so both see one answer. Never throws: an
 * input that cannot be sent is `invalid`, with the error the call throws.
 */
export function routeRequest(where: string, input: unknown, find: FindOperation): RequestRoute {
  let request: PreparedRequest;
  try {
    request = buildRawRequest(where, input);
    checkRequest(where, request);
  } catch (error) {
    return { kind: "invalid", error };
  }
  const found = find(request.method, request.path);
  if (!found) return { kind: "undeclared", request };
  const { operation, decision } = found;
  if (decision === "x") return { kind: "excluded", request, operation };
  return { kind: "operation", request, operation, decision };
}

/**
 * The escape hatch's approval rule: a declared operation's decision; an undeclared request waits
 * for a person unless `undeclaredReadsRun` lets GET, HEAD and OPTIONS run; a request the call will
 * refuse before sending needs none. Connectors with the same decisions share one rule.
 */
export function escapeHatchRule(find: FindOperation, undeclaredReadsRun: boolean): ApprovalRule {
  return (input) => {
    const route = routeRequest("request", input, find);
    if (route.kind === "operation") return route.decision === "g";
    if (route.kind === "undeclared") {
      return !(undeclaredReadsRun && READ_METHODS.includes(route.request.method));
    }
    return false;
  };
}
