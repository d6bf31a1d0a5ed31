export * from "@codemode/executor-quickjs";
