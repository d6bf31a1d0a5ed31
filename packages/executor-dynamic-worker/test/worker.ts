// The worker the workers test project runs in. Its fetch handler stands in for an outbound
// service: a sandbox given it as `globalOutbound` reaches it instead of the network. It exports
// `SandboxLoader`, so tests reach it as `exports.SandboxLoader`.
export { SandboxLoader } from "../src/index.ts";

export default {
  async fetch(request: Request): Promise<Response> {
    return Response.json({ routed: true, method: request.method, url: request.url });
  },
};
