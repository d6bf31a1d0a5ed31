// Loopback HTTP servers that serve the sandbox's document for `sandboxUrl`, run in the vitest process
// as browser commands: one per loopback address asked for (127.0.0.2, 127.0.0.3, …), each address a
// site of its own for the browser, as distinct domains would be.
import { createServer, type Server } from "node:http";
import type { BrowserCommand } from "vitest/node";

const servers = new Map<string, { server: Server; origin: string }>();
const requests: string[] = [];

/** Serves `html` at `/` of each host; answers their origins, in order. */
const serveSandbox: BrowserCommand<[html: string, hosts: string[]]> = async (
  _context,
  html,
  hosts,
) => {
  const origins: string[] = [];
  for (const host of hosts) {
    servers.get(host)?.server.close();
    const server = createServer((request, response) => {
      requests.push(`${host} ${request.method} ${request.url}`);
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    // the test run ends without waiting for it
    server.unref();
    const address = server.address();
    const origin = `http://${host}:${typeof address === "object" && address ? address.port : 0}`;
    servers.set(host, { server, origin });
    origins.push(origin);
  }
  return origins;
};

const sandboxRequests: BrowserCommand<[]> = () => [...requests];

export const sandboxServerCommands = { serveSandbox, sandboxRequests };

declare module "vitest/browser" {
  interface BrowserCommands {
    serveSandbox(html: string, hosts: string[]): Promise<string[]>;
    sandboxRequests(): Promise<string[]>;
  }
}
