// The catalog server over stdio through serveStdio, which pins each connection's era at its first
// exchange. Run as a child process by stdio.test.ts: `node test/stdio-server.ts [--modern-only]`.
// Its tool `grow` registers a tool `grown`, and the server tells its listeners the tools changed.
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createCatalogServer } from "./catalog-server.ts";

serveStdio(
  () => {
    const { server } = createCatalogServer();
    server.registerTool("grow", { annotations: { readOnlyHint: true } }, async () => {
      server.registerTool("grown", { annotations: { readOnlyHint: true } }, async () => ({
        content: [{ type: "text", text: "grown" }],
      }));
      return { content: [{ type: "text", text: "growing" }] };
    });
    return server;
  },
  process.argv.includes("--modern-only") ? { legacy: "reject" } : {},
);
