import { header } from "@/lib/http/openapi/builder";
import { ok } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/openapi.json",
  auth: "public",
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
      "200": ok(
        "The document.",
        { "application/json": { schema: { type: "object" } } },
        {
          ETag: header("Changes when the document does."),
          "Cache-Control": header("`public, max-age=300`."),
        },
      ),
      "304": {
        description: "Not modified: the copy the client holds is current.",
        headers: { ETag: header("As before.") },
      },
    },
  }),
});
