import { describe, expect, it } from "vitest";
import { cancellationOf, MAX_REASON_LENGTH, PassTicket, reasonText } from "./cancellation.ts";

describe("cancellationOf", () => {
  it("keeps who, why and when, trimmed and bounded, and says them in its text", () => {
    const at = Date.UTC(2026, 11, 1, 12, 0, 0);
    const cancellation = cancellationOf({
      at,
      by: "  ada  ",
      reason: " budget spent ",
      source: "api",
    });
    expect(cancellation).toEqual({
      at,
      by: "ada",
      reason: "budget spent",
      source: "api",
      text: "Cancelled by ada at 2026-12-01T12:00:00.000Z: budget spent. No call of the run starts after a cancellation.",
    });
    expect(reasonText("x".repeat(MAX_REASON_LENGTH + 10))).toHaveLength(MAX_REASON_LENGTH);
    expect(reasonText(42)).toBe("");
  });

  it("names the host, or the AI SDK for an aborted tool call, when nobody is named", () => {
    expect(cancellationOf({ at: Number.NaN, source: "api" }).text).toBe(
      "Cancelled by the host. No call of the run starts after a cancellation.",
    );
    expect(cancellationOf({ at: 0, reason: "stop!", source: "tool-abort" }).text).toBe(
      "Cancelled by the AI SDK (it aborted the tool call) at 1970-01-01T00:00:00.000Z: stop! No call of the run starts after a cancellation.",
    );
  });
});

describe("PassTicket", () => {
  const cancellation = cancellationOf({ at: 0, source: "api" });

  it("keeps the first cancellation, tells its listeners (a late one at once), and none after it left", async () => {
    let left = 0;
    const ticket = new PassTicket("exec_1", () => left++);
    const heard: string[] = [];
    ticket.onCancel((each) => heard.push(`early ${each.source}`));
    expect(ticket.cancel(cancellation)).toBe(true);
    expect(ticket.cancel(cancellationOf({ at: 1, source: "tool-abort" }))).toBe(false);
    expect(ticket.cancelled).toBe(cancellation);
    ticket.onCancel((each) => heard.push(`late ${each.source}`));
    expect(heard).toEqual(["early api", "late api"]);
    ticket.leave();
    ticket.leave();
    expect(left).toBe(1);
    await ticket.reported;

    const gone = new PassTicket("exec_2", () => {});
    gone.leave();
    expect(gone.cancel(cancellation)).toBe(false);
    expect(gone.cancelled).toBeUndefined();
  });

  it("is cancelled by an abort signal until it has reported, and ignores anything else", async () => {
    const controller = new AbortController();
    const ticket = new PassTicket("exec_1", () => {});
    ticket.cancelOn(controller.signal, () => 5);
    ticket.cancelOn({ aborted: true }, () => 6);
    ticket.cancelOn(null, () => 7);
    expect(ticket.cancelled).toBeUndefined();
    controller.abort();
    expect(ticket.cancelled).toMatchObject({ at: 5, source: "tool-abort" });

    const aborted = new PassTicket("exec_2", () => {});
    aborted.cancelOn(AbortSignal.abort(), () => 8);
    expect(aborted.cancelled).toMatchObject({ at: 8 });

    const reported = new PassTicket("exec_3", () => {});
    const later = new AbortController();
    reported.cancelOn(later.signal, () => 9);
    reported.leave();
    await reported.reported;
    later.abort();
    expect(reported.cancelled).toBeUndefined();
  });
});
