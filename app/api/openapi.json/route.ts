// The OpenAPI 3.1 document (lib/openapi): public, cacheable, revalidated by ETag.
import { CONTRACTS } from "@/app/api/contracts";
import { withPublic } from "@/lib/http/handler";
import { openApiDocument } from "@/lib/openapi/document";
import * as contract from "./contract";

export const GET = withPublic(contract.GET, async ({ req }) => {
  const { body, etag } = openApiDocument(CONTRACTS);
  const headers = { etag, "cache-control": "public, max-age=300", "access-control-allow-origin": "*" };
  if (
    req.headers
      .get("if-none-match")
      ?.split(/\s*,\s*/)
      .includes(etag)
  )
    return new Response(null, { status: 304, headers });
  return new Response(body, {
    status: 200,
    headers: { ...headers, "content-type": "application/json; charset=utf-8" },
  });
});
