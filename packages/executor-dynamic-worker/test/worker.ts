// The worker the workers test project runs in. Its fetch handler stands in for an outbound
// service: a sandbox given it as `globalOutbound` reaches it instead of the network; requests to
// paths under /record/ are also noted in `recordedRequests`, which the tests read. It exports
// `SandboxLoader`, so tests reach it as `exports.SandboxLoader`.
export { SandboxLoader } from "../src/index.ts";

/** URLs of requests to /record/… that reached the outbound service, in order. */
export const recordedRequests: string[] = [];

export default {
  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname.startsWith("/record/")) recordedRequests.push(request.url);
    return Response.json({ routed: true, method: request.method, url: request.url });
  },
};
