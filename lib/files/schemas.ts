// Response shapes of the upload routes (SPEC 2.2, 4.2), for the OpenAPI document.
import { z } from "zod";
import { fileIdString } from "../validate";

/** SPEC 4.2: the answer of an upload (multipart, or a finished resumable upload's GET). */
export const UploadedFile = z.strictObject({
  file_id: fileIdString().meta({ description: 'Use it as `{"file_id": "fi_..."}` in a trigger body.' }),
  size_bytes: z.number().int().min(1),
  content_type: z.string(),
  filename: z.string(),
});
export type UploadedFile = z.infer<typeof UploadedFile>;
