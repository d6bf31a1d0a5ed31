// Node tests typecheck files that mention the Workers AI binding type, which only the Worker's
// generated types declare. They never call one, so an opaque stand-in is enough here.
declare interface Ai {
  run(model: string, inputs: object, options?: object): Promise<unknown>;
}
