import { header } from "@/lib/openapi/builder";
import { binaryFile } from "@/lib/openapi/parts";
import { z } from "zod";
import { ANSWER, route } from "@/lib/http/contract";

const DownloadQuery = z.object({ token: z.string().min(1).meta({ description: "The signed token." }) });

export const GET = route({
  method: "GET",
  path: "/api/files/download",
  auth: "public",
  query: DownloadQuery,
  responses: { 200: ANSWER.file, 206: ANSWER.file, 302: ANSWER.redirect },
  errors: ["invalid_request", "invalid_signature", "url_expired", "not_found", "range_not_satisfiable"],
  openapi: () => ({
    operationId: "downloadFile",
    summary: "Download a file (signed URL)",
    tag: "Files",
    description:
      "The `url` of a resolved file reference or of a run's output file: the token is the credential (no " +
      "Authorization), valid for 15 minutes. A single `Range` gives `206`. With S3 storage " +
      "(`STORAGE_URL=s3://...`) a request without `Range` is answered `302` to a presigned URL of the " +
      "object, valid 15 minutes, that serves the same type and filename: follow redirects.",
    parameters: [
      {
        name: "Range",
        in: "header",
        required: false,
        description: "One byte range (`bytes=0-1023`, `bytes=1024-`, `bytes=-512`).",
        schema: { type: "string" },
      },
    ],
    responses: {
      "200": binaryFile("The file."),
      "206": binaryFile("The requested range.", {
        "Content-Range": header("`bytes start-end/size`."),
      }),
      "302": {
        description: "S3 storage, whole file: fetch the presigned URL in `Location` (valid 15 minutes).",
        headers: { Location: header("Presigned GET of the stored object.", { type: "string", format: "uri" }, true) },
      },
    },
  }),
});
