// A reproduction, not a test: starts `wrangler dev` for the demo agent and drives its chat over the
// WebSocket in cycles — "add a note", "delete note N" (pauses for approval), approve through
// /api/approve — until a cycle fails, then says whether local workerd aborted. With workerd
// 1.20260426 it aborts ("tried to defer destruction during isolate shutdown") after some cycles; see
// the README's "Known problem". Node 20 needs the flag for its WebSocket client:
//   NODE_OPTIONS=--experimental-websocket pnpm exec tsx scripts/chat-stress.ts [cycles] [add-only]
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWranglerDev } from "@codemode/demo-kit/testing";

type Event = { type: string; output?: { status?: string; executionId?: string; result?: unknown } };

const cycles = Number(process.argv[2] ?? 25);
const addOnly = process.argv[3] === "add-only";
const server = await startWranglerDev({
  appDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
});
const socket = new WebSocket(`${server.url.replace("http", "ws")}/chat`);
const events: Event[] = [];
socket.addEventListener("message", (event) => events.push(JSON.parse(String(event.data)) as Event));
await new Promise((resolve) => socket.addEventListener("open", resolve));

async function chat(text: string): Promise<Event> {
  events.length = 0;
  socket.send(JSON.stringify({ type: "chat", text }));
  const start = Date.now();
  while (Date.now() - start < 20_000) {
    const found = events.find((e) => ["tool-result", "tool-error", "error"].includes(e.type));
    if (found && events.some((e) => e.type === "done")) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no answer to "${text}" within 20 s`);
}

async function approve(executionId: string): Promise<{ status?: string }> {
  const response = await fetch(`${server.url}/api/approve`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ executionId }),
  });
  return (await response.json()) as { status?: string };
}

let done = 0;
try {
  for (; done < cycles; done++) {
    const added = await chat(`add a note Stress ${done}: nothing`);
    const id = (added.output?.result as { id?: number } | undefined)?.id;
    if (!id) throw new Error(`the note was not added: ${JSON.stringify(added).slice(0, 200)}`);
    if (addOnly) continue;
    const deleting = await chat(`delete note ${id}`);
    if (deleting.output?.status !== "paused" || !deleting.output.executionId) {
      throw new Error(`the deletion did not pause: ${JSON.stringify(deleting).slice(0, 200)}`);
    }
    const approved = await approve(deleting.output.executionId);
    if (approved.status !== "completed") throw new Error(`approval: ${JSON.stringify(approved)}`);
  }
} catch (error) {
  console.log(`stopped: ${(error as Error).message}`);
} finally {
  const aborted = /tried to defer destruction during isolate shutdown/.test(server.output());
  console.log(`${done} of ${cycles} cycles; local workerd ${aborted ? "ABORTED" : "kept running"}`);
  socket.close();
  await server.stop();
}
