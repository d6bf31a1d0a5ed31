// Another web page in the person's Chromium tries to decide for them, as issue 25 found it could: a
// page on another port of this machine opens the chat's WebSocket to read the conversation and
// approve the card, posts code, an approval by id, a rejection, a rollback, a cancellation and a
// catalog write as text/plain (no preflight), submits forms, and tries JSON (which needs a preflight); a page whose
// name rebinds to this machine calls the API under its own Host. None of it reads or changes
// anything, and the demo page itself still works: its card is approved and the task is created.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type DevServer,
  eventually,
  launchChromium,
  pageSession,
} from "@codemode/demo-kit/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { andTheTurn, openPanel } from "./demo-page-helpers.ts";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/** What the other page got: the socket's events and the answer to each request it could see. */
interface Attempts {
  socket: { opened: boolean; messages: string[]; closed: boolean };
  requests: Record<string, string>;
}

/** The other page's script, run in that page (its origin): every way in the issue lists. */
async function attack(target: {
  app: string;
  executionId: string;
  approvalId: string;
}): Promise<Attempts> {
  const { app, executionId, approvalId } = target;
  const socket = await new Promise<Attempts["socket"]>((resolve) => {
    const seen = { opened: false, messages: [] as string[], closed: false };
    const ws = new WebSocket(`${app.replace(/^http/, "ws")}/chat`);
    ws.onopen = () => {
      seen.opened = true;
      ws.send(JSON.stringify({ type: "hello" }));
      ws.send(JSON.stringify({ type: "approval", approvalId, approved: true }));
      ws.send(JSON.stringify({ type: "chat", text: "delete note 2" }));
    };
    // the conversation, read: enough to fail
    ws.onmessage = (event) => {
      seen.messages.push(String(event.data));
      ws.close();
    };
    ws.onclose = () => {
      seen.closed = true;
      resolve(seen);
    };
  });
  const requests: Record<string, string> = {};
  const plain = async (path: string, body: unknown) => {
    try {
      // no-cors with text/plain: a "simple" request, sent without asking; its answer is opaque
      await fetch(`${app}${path}`, {
        method: "POST",
        mode: "no-cors",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify(body),
      });
      requests[`text/plain ${path}`] = "sent";
    } catch (error) {
      requests[`text/plain ${path}`] = `failed: ${(error as Error).message}`;
    }
  };
  await plain("/api/run", {
    code: 'async () => notes.add_note({ title: "Forged", body: "by another page" })',
  });
  await plain("/api/approve", { executionId });
  await plain("/api/reject", { executionId, seq: 1 });
  await plain("/api/rollback", { executionId });
  await plain("/api/cancel", { executionId, reason: "another page" });
  await plain("/api/snippets", { name: "forged", executionId });
  await plain("/api/catalog/items", { name: "Forged item", price: 1 });
  // JSON needs a preflight, which the agent does not answer
  try {
    const answer = await fetch(`${app}/api/approve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ executionId }),
    });
    requests["json /api/approve"] = `answered ${answer.status}`;
  } catch (error) {
    requests["json /api/approve"] = `failed: ${(error as Error).message}`;
  }
  // forms, as a page submits them into a hidden frame: a text/plain form whose body reads as JSON,
  // and an urlencoded one
  const submit = (path: string, enctype: string, name: string, value: string) =>
    new Promise<void>((resolve) => {
      const frame = document.createElement("iframe");
      frame.name = `f${Math.random().toString(36).slice(2)}`;
      frame.onload = () => resolve();
      document.body.append(frame);
      const form = document.createElement("form");
      form.method = "POST";
      form.action = `${app}${path}`;
      form.enctype = enctype;
      form.target = frame.name;
      const input = document.createElement("input");
      input.name = name;
      input.value = value;
      form.append(input);
      document.body.append(form);
      form.submit();
    });
  await submit("/api/approve", "text/plain", `{"executionId":"${executionId}","x":"`, '"}');
  requests["form text/plain /api/approve"] = "submitted";
  await submit("/api/run", "application/x-www-form-urlencoded", "code", "async () => 1");
  requests["form urlencoded /api/run"] = "submitted";
  return { socket, requests };
}

describe("another web page", () => {
  const session = pageSession({ appDir, name: "other-origin" });
  let server: DevServer;
  let page: Page;
  let other: Server;
  let otherUrl: string;
  beforeAll(async () => {
    ({ server, page } = session);
    other = createServer((_request, response) => {
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.end("<!doctype html><title>Another page</title><p>Nothing to see here.</p>");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
  });
  afterAll(
    () => new Promise<void>((resolve) => (other ? other.close(() => resolve()) : resolve())),
  );

  /** What the agent holds, read as the page reads it. */
  const state = async () => {
    const read = async (path: string) =>
      (await (await fetch(`${server.url}${path}`)).json()) as unknown;
    return {
      runs: await read("/api/executions?limit=100"),
      pending: await read("/api/pending"),
      tracker: await read("/api/tracker"),
      notes: await read("/api/notes"),
      catalog: await read("/api/catalog/items"),
      snippets: await read("/api/snippets"),
    };
  };

  it("reads and changes nothing from another port of this machine, while a card waits", async () => {
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready]");
    await page.waitForSelector("#connection.online");
    await session.chat("create a task Write release notes in mobile");
    const card = page.locator("#chat-log .approval-card").last();
    await card.waitFor();
    const executionId = (await card.getAttribute("data-execution")) ?? "";
    const approvalId = (await card.getAttribute("data-approval-id")) ?? "";
    expect(executionId).toMatch(/^exec_/);
    const before = await state();
    expect(before.pending).toHaveLength(1);

    const browser = page.context().browser();
    if (!browser) throw new Error("the page has no browser");
    const attacker = await browser.newPage();
    await attacker.goto(otherUrl);
    const attempts = await attacker.evaluate(attack, { app: server.url, executionId, approvalId });
    await attacker.close();
    // the socket was refused before the agent saw it: it never opened and read nothing
    expect(attempts.socket).toEqual({ opened: false, messages: [], closed: true });
    // each request went out (the browser sends a simple request without asking) or failed its preflight
    expect(attempts.requests["text/plain /api/approve"]).toBe("sent");
    expect(attempts.requests["json /api/approve"]).toMatch(/^failed/);
    expect(Object.keys(attempts.requests)).toHaveLength(10);

    expect(await state()).toEqual(before);
    // the card still waits, unanswered, and the demo page answers it
    expect(await card.getAttribute("data-answered")).toBeNull();
    await andTheTurn(page, () => card.locator("button.card-approve").click());
    expect(await card.getAttribute("data-answered")).toBe("approved");
    await openPanel(page, "tracker-panel");
    await page.waitForSelector('table.tasks td.task-title:text-is("Write release notes")');
    await eventually(async () => ((await state()).pending as unknown[]).length).toBe(0);
  });

  describe("under a name that rebinds to this machine", () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium(["--host-resolver-rules=MAP rebound.test 127.0.0.1"]);
    });
    afterAll(() => browser?.close());

    it("reaches none of the API, the chat, /mcp or the catalog", async () => {
      const { port } = new URL(server.url);
      const rebound = await browser.newPage();
      // the page's static files may load; what a script of it reaches is what counts
      await rebound.goto(`http://rebound.test:${port}/favicon-missing`);
      const before = await state();
      const answers = await rebound.evaluate(async () => {
        const statusOf = async (path: string, init?: RequestInit) => {
          try {
            return (await fetch(path, init)).status;
          } catch (error) {
            return `failed: ${(error as Error).message}`;
          }
        };
        const json = { "content-type": "application/json" };
        const socket = await new Promise<string>((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/chat`);
          ws.onopen = () => {
            ws.close();
            resolve("opened");
          };
          ws.onclose = () => resolve("closed");
        });
        return {
          executions: await statusOf("/api/executions"),
          pending: await statusOf("/api/pending"),
          catalog: await statusOf("/api/catalog/items"),
          run: await statusOf("/api/run", {
            method: "POST",
            headers: json,
            body: JSON.stringify({ code: "async () => 1" }),
          }),
          catalogWrite: await statusOf("/api/catalog/items", {
            method: "POST",
            headers: json,
            body: JSON.stringify({ name: "Rebound", price: 1 }),
          }),
          mcp: await statusOf("/mcp", {
            method: "POST",
            headers: { ...json, accept: "application/json, text/event-stream" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
          }),
          socket,
        };
      });
      await rebound.close();
      expect(answers).toEqual({
        executions: 403,
        pending: 403,
        catalog: 403,
        run: 403,
        catalogWrite: 403,
        mcp: 403,
        socket: "closed",
      });
      expect(await state()).toEqual(before);
    });
  });
});
