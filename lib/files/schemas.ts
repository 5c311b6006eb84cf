// Response shapes of the upload routes (docs/api.md, Files), for the OpenAPI document.
import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import {
  AgentParams,
  fileIdString,
  listFilterFields,
  OrgAgentParams,
  queryCursor,
  queryLimit,
  responsePageFields,
} from "../validate";

/** The answer of an upload (multipart, or a finished resumable upload's GET). */
export const UploadedFile = z.strictObject({
  file_id: fileIdString().meta({ description: 'Use it as `{"file_id": "fi_..."}` in a trigger body.' }),
  size_bytes: z.number().int().min(1),
  content_type: z.string(),
  filename: z.string(),
});
export type UploadedFile = z.infer<typeof UploadedFile>;

/** A page of an agent's files, as the console's uploads page lists them. */
export const AgentFileRecord = z.strictObject({
  file_id: z.string(),
  filename: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  created_at: z.string(),
});
export const AgentFilePage = z.strictObject({
  files: z.array(AgentFileRecord),
  ...responsePageFields(),
});

/** The uploaded files list filters (docs/console.md, "List filters"): also a saved view's. */
export const AgentFilesFilters = z.object({
  ...listFilterFields({
    from: "Only files uploaded at or after this instant (RFC 3339, or a date).",
    to: "Only files uploaded before this instant (RFC 3339, or a date: through its end, UTC).",
  }),
});
export const AgentFilesQuery = AgentFilesFilters.extend({ limit: queryLimit(20, 100), cursor: queryCursor });

export const FileParams = OrgAgentParams.extend({
  file_id: z.string().meta({
    description: "An uploaded file of this agent (`fi_...`).",
    example: EXAMPLE_ID.file,
  }),
});

/**
 * A resumable upload's URL, `/api/agents/{agent_id}/upload/tus/{upload_id}`, as the OpenAPI document
 * names it: the route's optional catch-all segment is the upload's id.
 */
export const TusUploadParams = AgentParams.extend({
  upload_id: z.string().meta({
    description: "The upload (`upl_...`): the last segment of the `Location` the creation answered.",
    example: EXAMPLE_ID.upload,
  }),
});

/** A short-lived signed link to download an uploaded file (GET /api/files/download). */
export const FileLink = z.strictObject({
  file_id: z.string(),
  filename: z.string(),
  download_url: z.string(),
  expires_at: z.string(),
});
export const DeletedFile = z.strictObject({ file_id: z.string(), deleted: z.literal(true) });
