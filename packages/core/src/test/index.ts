// @codemode/core/test: test doubles for code that implements or uses core's contracts.
export { type MockCall, type MockMethod, mockConnector } from "./mock-connector.ts";
export { MockExecutor, type MockSandbox } from "./mock-executor.ts";
