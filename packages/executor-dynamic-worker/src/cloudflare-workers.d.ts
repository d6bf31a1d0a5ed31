// The runtime classes this package takes from workerd, declared for builds without Workers types.
// (Tests compile against the full types that `wrangler types` generates and leave this file out.)
declare module "cloudflare:workers" {
  export abstract class RpcTarget {}
  export abstract class WorkerEntrypoint<Env = unknown> {
    protected readonly env: Env;
    constructor(ctx: unknown, env: Env);
  }
}
