import { OFFLINE_MODEL_LABEL, OfflineDemoModel } from "@codemode/demo-kit";
import { describe, expect, it } from "vitest";
import { DEFAULT_WORKERS_AI_MODEL, selectModel } from "../src/select-model.ts";

const binding: Ai = { run: async () => ({}) };
const openAi = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_MODEL: "some-model" };

describe("selectModel", () => {
  it("uses the offline demo model when nothing is configured", () => {
    const selected = selectModel({ MODEL_PROVIDER: "auto" });
    expect(selected.provider).toBe("offline");
    expect(selected.label).toBe(OFFLINE_MODEL_LABEL);
    expect(selected.model).toBeInstanceOf(OfflineDemoModel);
  });

  it("prefers an OpenAI-compatible endpoint, then Workers AI", () => {
    const both = selectModel({ ...openAi, AI: binding });
    expect(both.provider).toBe("openai-compatible");
    expect(both.label).toBe("some-model (http://127.0.0.1:9/v1)");
    expect(both.model.modelId).toBe("some-model");
    const workersAi = selectModel({ AI: binding });
    expect(workersAi.provider).toBe("workers-ai");
    expect(workersAi.model.modelId).toBe(DEFAULT_WORKERS_AI_MODEL);
    expect(selectModel({ AI: binding, WORKERS_AI_MODEL: "@cf/x/y" }).label).toBe(
      "@cf/x/y (Workers AI)",
    );
  });

  it("follows MODEL_PROVIDER, and says what is missing", () => {
    expect(selectModel({ ...openAi, AI: binding, MODEL_PROVIDER: "offline" }).provider).toBe(
      "offline",
    );
    expect(selectModel({ ...openAi, AI: binding, MODEL_PROVIDER: "workers-ai" }).provider).toBe(
      "workers-ai",
    );
    expect(() => selectModel({ MODEL_PROVIDER: "workers-ai" })).toThrow(/AI binding/);
    expect(() => selectModel({ MODEL_PROVIDER: "openai-compatible" })).toThrow(/OPENAI_BASE_URL/);
    expect(() => selectModel({ MODEL_PROVIDER: "gpt" })).toThrow(/auto, offline/);
  });
});
