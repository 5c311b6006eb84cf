// Response shapes of the upload routes (docs/api.md, Files), for the OpenAPI document.
import { z } from "zod";
import { fileIdString, listFilterFields, queryCursor, queryLimit, responsePageFields } from "../validate";

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
export const AgentFilesFilters = z.object({ ...listFilterFields() });
export const AgentFilesQuery = AgentFilesFilters.extend({ limit: queryLimit(20, 100), cursor: queryCursor });

export const FileParams = z.object({ agent_id: z.string(), file_id: z.string() });
/** A short-lived signed link to download an uploaded file (GET /api/files/download). */
export const FileLink = z.strictObject({
  file_id: z.string(),
  filename: z.string(),
  download_url: z.string(),
  expires_at: z.string(),
});
export const DeletedFile = z.strictObject({ file_id: z.string(), deleted: z.literal(true) });
