// codemode/tanstack-ai: the `codemode` tool for TanStack AI and its approvals (needs `@tanstack/ai`
// and `@codemode/tanstack-ai`).
export * from "@codemode/tanstack-ai";
