export {
  type FunctionConnectorOptions,
  type FunctionMethod,
  functionConnector,
} from "./function-connector.ts";
