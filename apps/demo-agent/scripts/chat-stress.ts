// A stress run, not a test: starts `wrangler dev` for the demo agent and drives its chat over the
// WebSocket in cycles — "add a note", "delete note N" (pauses for approval), approve through
// /api/approve — until a cycle fails or all are done, then says whether local workerd aborted (the
// README's "The sandbox workers are loaded outside the Durable Object" tells what used to abort it).
// Node 20 needs the flag for its WebSocket client:
//   NODE_OPTIONS=--experimental-websocket pnpm exec tsx scripts/chat-stress.ts [cycles] [add-only] [--frozen] [--log=FILE]
// --frozen bundles the Worker once (into .wrangler/stress) and serves that bundle, so that edits
// elsewhere in the workspace do not make `wrangler dev` reload in the middle of a run; --log=FILE
// writes wrangler's output (workerd's included) to FILE.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWranglerDev } from "@codemode/demo-kit/testing";

type Event = {
  type: string;
  output?: { status?: string; executionId?: string; result?: unknown };
  /** an approval request's card */
  card?: { executionId?: string };
};

const flags = process.argv.slice(2).filter((arg) => arg.startsWith("--"));
const [count, mode] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const cycles = Number(count ?? 25);
const addOnly = mode === "add-only";
const logFile = flags.find((flag) => flag.startsWith("--log="))?.slice("--log=".length);
const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The Worker bundled once, with a config that serves the bundle as it is. */
function frozenApp(): string {
  const dir = join(appDir, ".wrangler", "stress");
  rmSync(dir, { recursive: true, force: true });
  execFileSync("pnpm", ["exec", "wrangler", "deploy", "--dry-run", "--outdir", dir], {
    cwd: appDir,
    stdio: "ignore",
  });
  const config = JSON.parse(
    readFileSync(join(appDir, "wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, ""),
  );
  const frozen = {
    ...config,
    $schema: undefined,
    main: "index.js",
    no_bundle: true,
    assets: { ...config.assets, directory: join(appDir, "public") },
  };
  writeFileSync(join(dir, "wrangler.json"), JSON.stringify(frozen));
  return dir;
}

const server = await startWranglerDev({
  appDir: flags.includes("--frozen") ? frozenApp() : appDir,
});
// the chat and the API take requests from the page's own origin only: say it, as the page does
const socket = new WebSocket(`${server.url.replace("http", "ws")}/chat`, {
  headers: { origin: server.url },
} as unknown as string[]);
const events: Event[] = [];
socket.addEventListener("message", (event) => events.push(JSON.parse(String(event.data)) as Event));
await new Promise((resolve) => socket.addEventListener("open", resolve));

async function chat(text: string): Promise<Event> {
  events.length = 0;
  socket.send(JSON.stringify({ type: "chat", text }));
  const start = Date.now();
  while (Date.now() - start < 20_000) {
    const found = events.find((e) =>
      ["tool-result", "tool-error", "error", "approval-request"].includes(e.type),
    );
    if (found && events.some((e) => e.type === "done")) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no answer to "${text}" within 20 s`);
}

/** Approves what the queue shows for the run, with the handle it gives, as the page does. */
async function approve(executionId: string): Promise<{ status?: string }> {
  const queue = (await (await fetch(`${server.url}/api/queue`)).json()) as Array<{
    executionId: string;
    handle: unknown;
  }>;
  const handle = queue.find((run) => run.executionId === executionId)?.handle;
  const response = await fetch(`${server.url}/api/approve`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ executionId, handle }),
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
    // the run pauses: the chat asks with a card
    const deleting = await chat(`delete note ${id}`);
    const executionId = deleting.card?.executionId;
    if (deleting.type !== "approval-request" || !executionId) {
      throw new Error(`the deletion did not pause: ${JSON.stringify(deleting).slice(0, 200)}`);
    }
    const approved = await approve(executionId);
    if (approved.status !== "completed") throw new Error(`approval: ${JSON.stringify(approved)}`);
  }
} catch (error) {
  console.log(`stopped: ${(error as Error).message}`);
} finally {
  const output = server.output();
  const aborted = /tried to defer destruction during isolate shutdown/.test(output);
  const reloaded = /Reloading local server/.test(output);
  console.log(
    `${done} of ${cycles} cycles; local workerd ${aborted ? "ABORTED" : "kept running"}${reloaded ? " (wrangler reloaded during the run: try --frozen)" : ""}`,
  );
  if (logFile) writeFileSync(logFile, output);
  socket.close();
  await server.stop();
  if (done < cycles) process.exitCode = 1;
}
