// Exports (docs/api.md, Exports): the request body, its filters and redaction, and the export's
// record, shared by the console and the management API. Browser-safe: no server imports.
import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import {
  inputInstant,
  OrgParams,
  queryCursor,
  queryLimit,
  responseId,
  responsePageFields,
  responseTimestamp,
} from "../validate";

export const EXPORT_KINDS = ["sessions", "runs", "deliveries", "audit", "user_timeline", "evaluation_cases"] as const;
export const ExportKind = z.enum(EXPORT_KINDS);
export type ExportKind = z.infer<typeof ExportKind>;

export const ExportFormat = z.enum(["csv", "jsonl"]);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const EXPORT_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export const ExportStatus = z.enum(EXPORT_STATUSES);

/** Names of metadata or input fields redacted at any depth: a few, short, as a member types them. */
export const REDACT_FIELDS_MAX = 50;
export const REDACT_FIELD_MAX_LENGTH = 100;

const timestamp = inputInstant("must be an RFC 3339 date-time, such as 2026-11-27T09:00:00Z");

/**
 * The filters of the console's lists that an export takes (one schema, so the lists' own filters
 * can be merged into it): a time range on the records' creation, an agent, a status, an end user,
 * and for the audit log an action (`group.*` too).
 */
export const ExportFilters = z.strictObject({
  from: timestamp.optional(),
  to: timestamp.optional(),
  agent_id: z.string().min(1).max(64).optional(),
  status: z.string().min(1).max(64).optional(),
  user_id: z.string().min(1).max(256).optional(),
  action: z.string().min(1).max(100).optional(),
  /** evaluation_cases: the evaluation whose cases are exported (required for that kind, refused for the others). */
  evaluation_id: z.string().min(1).max(64).optional(),
});
export type ExportFilters = z.infer<typeof ExportFilters>;

export const ExportRedaction = z.strictObject({
  emails: z.boolean().default(false),
  phones: z.boolean().default(false),
  cards: z.boolean().default(false),
  fields: z.array(z.string().trim().min(1).max(REDACT_FIELD_MAX_LENGTH)).max(REDACT_FIELDS_MAX).default([]),
});
export type ExportRedaction = z.infer<typeof ExportRedaction>;

export const CreateExportBody = z.strictObject({
  kind: ExportKind,
  format: ExportFormat.default("csv"),
  filters: ExportFilters.default({}),
  redact: ExportRedaction.default({ emails: false, phones: false, cards: false, fields: [] }),
});
export type CreateExportBody = z.input<typeof CreateExportBody>;

export const ExportParams = OrgParams.extend({
  export_id: z.string().meta({ description: "The export (`exp_...`).", example: EXAMPLE_ID.export }),
});
export const ExportDownloadQuery = z.object({
  token: z.string().min(1).max(1000).meta({ description: "The signed token." }),
});
export const ExportListQuery = z.object({ limit: queryLimit(20, 100), cursor: queryCursor });

export const ExportRecord = z.strictObject({
  export_id: responseId("exp"),
  kind: ExportKind,
  format: ExportFormat,
  status: ExportStatus,
  filters: ExportFilters,
  redact: z.strictObject({
    emails: z.boolean(),
    phones: z.boolean(),
    cards: z.boolean(),
    fields: z.array(z.string()),
  }),
  /** What the redaction did: `emails`, `phones`, `cards`, `field:<name>`. */
  rules_applied: z.array(z.string()),
  rows_written: z.number().int(),
  rows_estimated: z.number().int().nullable(),
  size_bytes: z.number().int().nullable(),
  error_code: z.string().nullable(),
  requested_by: z.string().nullable(),
  file_name: z.string(),
  created_at: responseTimestamp(),
  started_at: responseTimestamp().nullable(),
  finished_at: responseTimestamp().nullable(),
  /** The file is deleted then (the export sweep). */
  expires_at: responseTimestamp(),
  /** A signed link valid 15 minutes, fresh on every read; null until the export succeeded or after it expired. */
  download_url: z.string().nullable(),
  download_url_expires_at: responseTimestamp().nullable(),
});
export type ExportRecord = z.infer<typeof ExportRecord>;

export const ExportList = z.strictObject({
  exports: z.array(ExportRecord),
  ...responsePageFields(),
});
