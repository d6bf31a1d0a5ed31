// What `wrangler types --include-runtime=false` generates for the Worker the READMEs' Workers
// examples describe (wrangler.jsonc: worker_loaders LOADER, a SQLite Durable Object AGENT, and
// .wasm modules); the runtime's own types come from types/workers-runtime.d.ts.
interface __BaseEnv_Env {
  LOADER: WorkerLoader;
  AGENT: DurableObjectNamespace;
}
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./main");
  }
  interface Env extends __BaseEnv_Env {}
}
interface Env extends __BaseEnv_Env {}
declare module "*.wasm" {
  const value: WebAssembly.Module;
  export default value;
}
