// A loopback HTTP server the browser tests aim the sandbox at, run in the vitest process as browser
// commands: it records every request that arrives, so a test can show that nothing left the sandbox.
import { createServer, type Server } from "node:http";
import type { BrowserCommand } from "vitest/node";

let server: Server | undefined;
let origin = "";
const seen: string[] = [];

const startRecorder: BrowserCommand<[]> = async () => {
  if (server) return origin;
  const started = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    response.writeHead(200, {
      "access-control-allow-origin": "*",
      "content-type": "text/plain",
    });
    response.end("reached");
  });
  await new Promise<void>((resolve) => started.listen(0, "127.0.0.1", resolve));
  // the test run ends without waiting for it
  started.unref();
  const address = started.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  server = started;
  return origin;
};

const recordedRequests: BrowserCommand<[]> = () => [...seen];

const clearRecorder: BrowserCommand<[]> = () => {
  seen.length = 0;
};

export const recorderCommands = { startRecorder, recordedRequests, clearRecorder };

declare module "vitest/browser" {
  interface BrowserCommands {
    startRecorder(): Promise<string>;
    recordedRequests(): Promise<string[]>;
    clearRecorder(): Promise<void>;
  }
}
