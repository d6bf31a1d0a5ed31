// The client the official MCP conformance suite (@modelcontextprotocol/conformance) drives in
// official-conformance.test.ts: `conformance client --command "<node> <this file>"` runs it once
// per scenario with the referee's URL as its last argument, the scenario's name in
// MCP_CONFORMANCE_SCENARIO, the spec version in MCP_CONFORMANCE_PROTOCOL_VERSION and the scenario's
// inputs (JSON) in MCP_CONFORMANCE_CONTEXT. Everything it does goes through mcpConnector as an
// application would use it: methods() (and the TypeScript the model would read, rendered from
// each tool's schemas), invoke(), close(). It exits 0 when the scenario's steps ran, 1 otherwise;
// the referee judges the traffic.

import { jsonSchemaToTypeScript } from "@codemode/typegen";
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from "@modelcontextprotocol/client";
import { type McpConnector, type McpConnectorOptions, mcpConnector } from "../src/index.ts";

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const url = process.argv.at(-1) ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, unknown>;

let seq = 0;
const call = () => ({
  executionId: `conformance_${scenario}`,
  seq: seq++,
  idempotencyKey: `conformance_${scenario}:${seq}`,
  signal: new AbortController().signal,
});

/** The method a tool became, by its MCP name. */
async function methodOf(connector: McpConnector, tool: string): Promise<string | undefined> {
  const methods = await connector.methods();
  if (Object.hasOwn(methods, tool)) return tool;
  return Object.keys(methods).find((name) => methods[name]?.keywords?.includes(tool));
}

/** Lists the tools and renders what the model would read of each, as the runtime does. */
async function listAndRender(connector: McpConnector) {
  const methods = await connector.methods();
  for (const [name, method] of Object.entries(methods)) {
    jsonSchemaToTypeScript(`${name}Input`, method.inputSchema);
    if (method.outputSchema) jsonSchemaToTypeScript(`${name}Output`, method.outputSchema);
  }
  return methods;
}

/** Calls a tool by its MCP name; a failure the scenario expects is reported, not thrown. */
async function invoke(connector: McpConnector, tool: string, input: unknown, mayFail = false) {
  const method = await methodOf(connector, tool);
  if (method === undefined) {
    if (mayFail) return;
    throw new Error(`The server offers no tool "${tool}".`);
  }
  try {
    return await connector.invoke(method, input, call());
  } catch (error) {
    if (!mayFail) throw error;
    console.error(`${tool} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const steps: Record<string, (connector: McpConnector) => Promise<void>> = {
  async initialize(connector) {
    await listAndRender(connector);
  },
  async tools_call(connector) {
    await listAndRender(connector);
    await invoke(connector, "add_numbers", { a: 5, b: 3 });
  },
  async "request-metadata"(connector) {
    await connector.client();
  },
  async "sse-retry"(connector) {
    await listAndRender(connector);
    await invoke(connector, "test_reconnection", {});
  },
  async "http-standard-headers"(connector) {
    const methods = await listAndRender(connector);
    const [first] = Object.keys(methods);
    if (first !== undefined) await connector.invoke(first, {}, call());
  },
  async "http-custom-headers"(connector) {
    await listAndRender(connector);
    const calls = (context.toolCalls ?? []) as Array<{ name: string; arguments: unknown }>;
    for (const { name, arguments: input } of calls) await invoke(connector, name, input);
  },
  async "http-invalid-tool-headers"(connector) {
    const methods = await listAndRender(connector);
    // every tool the connector offers is called: the referee checks the invalid ones are not
    for (const name of Object.keys(methods)) {
      await invoke(connector, name, { region: "us-west1" }, true);
    }
  },
  async "json-schema-ref-no-deref"(connector) {
    await listAndRender(connector);
  },
  async "json-schema-2020-12-preservation"(connector) {
    const methods = await listAndRender(connector);
    const focal = await methodOf(connector, "json_schema_2020_12_tool");
    if (focal === undefined) throw new Error("The server offers no json_schema_2020_12_tool.");
    await invoke(connector, "json_schema_echo", { schema: methods[focal]?.inputSchema });
  },
  async "sep-2322-client-request-state"(connector) {
    // the connector answers no elicitation: each call fails, and says so
    for (const tool of [
      "test_mrtr_echo_state",
      "test_mrtr_no_state",
      "test_mrtr_unrelated",
      "test_mrtr_no_result_type",
    ]) {
      await invoke(connector, tool, {}, true);
    }
  },
  async "auth/client-credentials-basic"(connector) {
    await listAndRender(connector);
  },
  async "auth/client-credentials-jwt"(connector) {
    await listAndRender(connector);
  },
};

/** The connector's options for a scenario: the `http` an application would pass. */
function optionsFor(name: string): Partial<McpConnectorOptions> {
  if (name === "auth/client-credentials-basic") {
    return {
      http: {
        authProvider: new ClientCredentialsProvider({
          clientId: String(context.client_id),
          clientSecret: String(context.client_secret),
        }),
      },
    };
  }
  if (name === "auth/client-credentials-jwt") {
    return {
      http: {
        authProvider: new PrivateKeyJwtProvider({
          clientId: String(context.client_id),
          privateKey: String(context.private_key_pem),
          algorithm: String(context.signing_algorithm ?? "ES256"),
        }),
      },
    };
  }
  return {};
}

const step = Object.hasOwn(steps, scenario) ? steps[scenario] : undefined;
if (!step || !url) {
  console.error(`Unknown scenario "${scenario}" or no server URL.`);
  process.exit(1);
}
const connector = mcpConnector({ name: "conformance", url, ...optionsFor(scenario) });
try {
  await step(connector);
  await connector.close();
  process.exit(0);
} catch (error) {
  console.error(error);
  await connector.close().catch(() => {});
  process.exit(1);
}
