// The Worker's main module the Workers examples assume: it exports SandboxLoader, so a Durable
// Object's ctx.exports has it (worker-configuration.d.ts names this module).
export { SandboxLoader } from "codemode/cloudflare";
