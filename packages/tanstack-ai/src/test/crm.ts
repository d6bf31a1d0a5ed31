// A small CRM as a function connector: reads run freely, `send_invoice` waits for a person.
import { functionConnector } from "@codemode/connector-function";
import { createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";

export function crmRuntime() {
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
    connectors: [crm],
  });
  return { runtime, sent, found };
}
