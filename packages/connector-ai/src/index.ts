export { type ToolSetConnectorOptions, toolSetConnector } from "./tool-set-connector.ts";
