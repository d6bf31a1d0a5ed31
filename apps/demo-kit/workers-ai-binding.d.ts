// The model selection takes a Workers AI binding, whose type only a Worker's generated types declare
// (the apps have it in worker-configuration.d.ts). The kit never calls one, so an opaque stand-in is
// enough to typecheck it on its own.
declare interface Ai {
  run(model: string, inputs: object, options?: object): Promise<unknown>;
}
