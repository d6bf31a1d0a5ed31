// A stand-in OpenAI-compatible chat completions endpoint on a loopback port: on a new question it
// streams a `codemode` tool call, and once the tool result is in the conversation it streams an
// answer that quotes the result.
import { createServer, type IncomingMessage } from "node:http";

export interface ChatRequestBody {
  model: string;
  stream?: boolean;
  messages: Array<{ role: string; content?: string | null }>;
  tools?: Array<{ type: string; function: { name: string; description?: string } }>;
}

export interface FakeOpenAiServer {
  baseUrl: string;
  requests: Array<{ authorization?: string; body: ChatRequestBody }>;
  close(): Promise<void>;
}

const read = async (request: IncomingMessage) => {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
};

const chunk = (delta: Record<string, unknown>, finish: string | null) =>
  `data: ${JSON.stringify({
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 0,
    model: "fake-model",
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

/** Starts the endpoint; `code` is the program its tool call carries. */
export function startFakeOpenAiServer(code: string): Promise<FakeOpenAiServer> {
  const requests: FakeOpenAiServer["requests"] = [];
  const server = createServer(async (request, response) => {
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
      response.writeHead(404).end();
      return;
    }
    const body = JSON.parse(await read(request)) as ChatRequestBody;
    requests.push({ authorization: request.headers.authorization, body });
    response.writeHead(200, { "content-type": "text/event-stream" });
    const tool = body.messages.findLast((message) => message.role === "tool");
    const last = body.messages[body.messages.length - 1];
    if (last?.role === "tool" && tool) {
      const output = JSON.parse(String(tool.content)) as { result?: unknown };
      response.write(chunk({ role: "assistant", content: "The program returned " }, null));
      response.write(chunk({ content: `${JSON.stringify(output.result)}.` }, null));
      response.write(chunk({}, "stop"));
    } else {
      const call = {
        index: 0,
        id: "call_fake_1",
        type: "function",
        function: { name: "codemode", arguments: JSON.stringify({ code }) },
      };
      response.write(chunk({ role: "assistant", tool_calls: [call] }, null));
      response.write(chunk({}, "tool_calls"));
    }
    response.end("data: [DONE]\n\n");
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        baseUrl: `http://127.0.0.1:${port}/v1`,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
