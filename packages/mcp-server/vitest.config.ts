import { defineConfig } from "vitest/config";
import { nodeProject } from "../../vitest.shared.ts";

export default defineConfig({ test: { projects: [nodeProject()] } });
