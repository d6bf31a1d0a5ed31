// The body the page posts to /api/chat: one user message and the page's `codemode` tool, as the
// tests that call the Worker from elsewhere send it.
export const chatBody = JSON.stringify({
  messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "what page is this?" }] }],
  clientTools: [
    {
      name: "codemode",
      description: "Run JavaScript over the page's tools.",
      inputSchema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
    },
  ],
});
