// A Code Mode server over stdio whose client went away (it closed its end of the server's stdout)
// while a connector was still listing: when the listing arrives, the codemode tool's new description
// is announced with `notifications/tools/list_changed`, the write fails with EPIPE, and the server
// closes its transport. The process goes on: the failed notification is not an unhandled rejection
// (the SDK's `RegisteredTool.update` sends it without a handler, which ended the process).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const SERVER = fileURLToPath(new URL("../test/late-listing-stdio-server.ts", import.meta.url));

const line = (message: object) => `${JSON.stringify(message)}\n`;

it("a client gone before the description changes does not end the server's process", async () => {
  const child = spawn(
    process.execPath,
    ["--experimental-transform-types", "--no-warnings", SERVER],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const answered = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  child.stdin.write(
    line({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "gone", version: "1.0.0" },
      },
    }),
  );
  await answered;
  child.stdin.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
  // the client stops reading: the server's next write to stdout fails with EPIPE
  const closed = new Promise((resolve) => child.stdout.once("close", resolve));
  child.stdout.destroy();
  await closed;
  child.kill("SIGUSR2");
  expect(await exited).toBe(0);
  expect(stderr).toBe("closed\n");
}, 180_000);
