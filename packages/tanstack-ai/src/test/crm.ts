// A small CRM as a function connector: reads run freely, `send_invoice` waits for a person (and,
// with `invoiceOperation`, names where its calls go, as an HTTP connector's method does).
import { functionConnector } from "@codemode/connector-function";
import { type Connector, createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";

/** `connector` with `operation` named by its method `name` (a function connector names none). */
function naming(connector: Connector, name: string, operation: string): Connector {
  return {
    ...connector,
    methods: async () => {
      const methods = await connector.methods();
      return { ...methods, [name]: { ...methods[name], operation } };
    },
  };
}

export function crmRuntime(options: { invoiceOperation?: string } = {}) {
  const sent: Array<{ customer: string; amount: number }> = [];
  const found: string[] = [];
  const crm = functionConnector({
    name: "crm",
    instructions: "The customers of the shop.",
    methods: {
      find_customer: {
        description: "Find a customer by name.",
        inputSchema: {
          type: "object",
          properties: { name: { type: "string" } },
          required: ["name"],
        },
        execute: async (input) => {
          const { name } = input as { name: string };
          found.push(name);
          return { id: `cus_${name.toLowerCase()}`, name, balance: 120 };
        },
      },
      send_invoice: {
        description: "Send an invoice to a customer.",
        inputSchema: {
          type: "object",
          properties: { customer: { type: "string" }, amount: { type: "number" } },
          required: ["customer", "amount"],
        },
        requiresApproval: true,
        execute: async (input) => {
          const invoice = input as { customer: string; amount: number };
          sent.push(invoice);
          return { invoice: `inv_${sent.length}`, ...invoice };
        },
      },
    },
  });
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new QuickJSExecutor(),
    connectors: [
      options.invoiceOperation === undefined
        ? crm
        : naming(crm, "send_invoice", options.invoiceOperation),
    ],
  });
  return { runtime, sent, found };
}
