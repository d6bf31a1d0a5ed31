// An OpenAPI 3.0 document for the path-parameter tests: for every path style the connector builds
// (simple, label, matrix, each with and without explode) a record (`GET /{style}/{id}`, which
// `recordOf` names) and its preview (`GET /{style}/{id}/preview`, `previewOf`). A test leaves the
// records out with `include`, so a preview's parameter that could cut its path short would reach an
// operation the connector does not offer.
import type { OpenAPIV3 } from "openapi-types";

export interface PathStyle {
  /** the first path segment, and the operations' suffix */
  key: string;
  style: "simple" | "label" | "matrix";
  explode: boolean;
}

export const PATH_STYLES: readonly PathStyle[] = [
  { key: "simple", style: "simple", explode: false },
  { key: "simpleExploded", style: "simple", explode: true },
  { key: "label", style: "label", explode: false },
  { key: "labelExploded", style: "label", explode: true },
  { key: "matrix", style: "matrix", explode: false },
  { key: "matrixExploded", style: "matrix", explode: true },
];

export const recordOf = (style: PathStyle) => `record_${style.key}`;
export const previewOf = (style: PathStyle) => `preview_${style.key}`;

const ok: OpenAPIV3.ResponsesObject = {
  "200": {
    description: "OK.",
    content: { "application/json": { schema: { type: "object", additionalProperties: true } } },
  },
};

export function pathStylesDocument(server: string): OpenAPIV3.Document {
  const paths: OpenAPIV3.PathsObject = {};
  for (const style of PATH_STYLES) {
    const parameters: OpenAPIV3.ParameterObject[] = [
      {
        name: "id",
        in: "path",
        required: true,
        style: style.style,
        explode: style.explode,
        schema: {
          oneOf: [
            { type: "string" },
            { type: "array", items: { type: "string" } },
            { type: "object", additionalProperties: { type: "string" } },
          ],
        },
      },
    ];
    paths[`/${style.key}/{id}`] = {
      parameters,
      get: { operationId: recordOf(style), responses: ok },
    };
    paths[`/${style.key}/{id}/preview`] = {
      parameters,
      get: { operationId: previewOf(style), responses: ok },
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: "Records", version: "1" },
    servers: [{ url: server }],
    paths,
  };
}
