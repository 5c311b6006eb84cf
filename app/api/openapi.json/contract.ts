import { header } from "@/lib/openapi/builder";
import { z } from "zod";
import { ANSWER, route } from "@/lib/http/contract";

/** The document itself: OpenAPI 3.1 (lib/openapi/document.ts builds it; Redocly lints it). */
const OpenApiJson = z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) });

export const GET = route({
  method: "GET",
  path: "/api/openapi.json",
  auth: "public",
  responses: { 200: OpenApiJson, 304: ANSWER.none },
  errors: [],
  openapi: () => ({
    operationId: "openApiDocument",
    summary: "This OpenAPI document",
    tag: "Service",
    description:
      "OpenAPI 3.1, generated from the zod schemas the routes validate with. Cacheable: `ETag` and " +
      "`If-None-Match` (`304`).",
    parameters: [
      {
        name: "If-None-Match",
        in: "header",
        required: false,
        description: "The `ETag` of a copy the client holds.",
        schema: { type: "string" },
      },
    ],
    responses: {
      "200": {
        description: "The document.",
        headers: {
          ETag: header("Changes when the document does."),
          "Cache-Control": header("`public, max-age=300`."),
        },
      },
      "304": {
        description: "Not modified: the copy the client holds is current.",
        headers: { ETag: header("As before.") },
      },
    },
  }),
});
