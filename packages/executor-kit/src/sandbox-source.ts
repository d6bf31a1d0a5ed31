// core's, shared: the runtime's prelude is built the same way
export { sandboxSource } from "@codemode/core/internal";
