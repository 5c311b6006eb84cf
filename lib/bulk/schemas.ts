// Request and answer shapes of the bulk actions (docs/api.md, Bulk actions): one action on many
// runs or Access Keys, chosen as ids or as "everything matching this filter". The runs' filter is the
// console runs list's own query without its paging (OrgRunsQuery), so a filter the list accepts is
// a selection here. Browser-safe: the console's dialogs read these types.
import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import { CONTROL_VALUES, OrgRunsQuery } from "../runs/schemas";
import { OrgParams, queryCursor, queryLimit, responsePageFields, responseTimestamp } from "../validate";

export const BULK_RUN_ACTIONS = CONTROL_VALUES;
export type BulkRunAction = (typeof BULK_RUN_ACTIONS)[number];
export const BULK_ACTIONS = [...CONTROL_VALUES, "revoke"] as const;
export type BulkActionName = (typeof BULK_ACTIONS)[number];

/** The most ids one selection may name; a larger set is selected by filter. */
export const MAX_SELECTED_IDS = 1000;

/** The runs list's filter (its query without `limit` and `cursor`). */
export const RunFilter = z.strictObject(OrgRunsQuery.omit({ limit: true, cursor: true }).shape);
export type RunFilter = z.infer<typeof RunFilter>;
/** Access Keys have no list filter: `{}` selects every key of the organization. */
export const KeyFilter = z.strictObject({});

const ids = z.array(z.string().min(1).max(100)).min(1).max(MAX_SELECTED_IDS);

export const BulkSelection = z.union([
  z.strictObject({ run_ids: ids }),
  z.strictObject({ key_ids: ids }),
  z.strictObject({ filter: z.record(z.string(), z.unknown()) }),
]);
export type BulkSelection = z.infer<typeof BulkSelection>;

export const BulkPreviewBody = z.strictObject({
  action: z.enum(BULK_ACTIONS),
  selection: BulkSelection,
});
export type BulkPreviewBody = z.infer<typeof BulkPreviewBody>;

export const StartBulkActionBody = BulkPreviewBody.extend({
  /** The `allowed` count of the dry run the person confirmed: a different count now is 409 selection_changed. */
  expected_count: z.number().int().min(0).optional(),
});
export type StartBulkActionBody = z.infer<typeof StartBulkActionBody>;

export const BulkReasonCount = z.strictObject({
  reason: z.enum(["not_found", "status", "error"]).meta({
    description: "`not_found`: no such target in the organization; `status`: its state does not allow the action.",
  }),
  status: z.string().nullable().meta({ description: "The state that refused the action (`status` reasons)." }),
  count: z.number().int().min(0),
});

export const BulkSampleTarget = z.strictObject({
  id: z.string(),
  name: z.string().meta({ description: "The run's agent, or the key's name." }),
  status: z.string(),
});

export const BulkPreview = z.strictObject({
  action: z.enum(BULK_ACTIONS),
  target_type: z.enum(["run", "access_key"]),
  matched: z.number().int().min(0).meta({ description: "Targets of the selection found in the organization." }),
  allowed: z.number().int().min(0).meta({ description: "Of those, the ones whose state allows the action now." }),
  not_allowed: z.array(BulkReasonCount),
  sample: z.array(BulkSampleTarget).max(10).meta({ description: "The first ten allowed targets, newest first." }),
});
export type BulkPreview = z.infer<typeof BulkPreview>;

export const BULK_STATUSES = ["pending", "running", "completed", "failed"] as const;

export const BulkActionRecord = z.strictObject({
  bulk_action_id: z.string(),
  action: z.enum(BULK_ACTIONS),
  target_type: z.enum(["run", "access_key"]),
  selection: BulkSelection,
  status: z.enum(BULK_STATUSES),
  matched: z.number().int(),
  allowed: z.number().int(),
  not_allowed: z.array(BulkReasonCount),
  total: z.number().int().meta({ description: "Targets to account for: matched plus ids not found." }),
  processed: z.number().int().meta({ description: "done + skipped + failed: equals total when finished." }),
  counts: z.strictObject({ done: z.number().int(), skipped: z.number().int(), failed: z.number().int() }),
  skipped_reasons: z.array(BulkReasonCount),
  started_by: z.strictObject({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() }),
  started_at: responseTimestamp(),
  completed_at: responseTimestamp().nullable(),
  error: z.string().nullable(),
});
export type BulkActionRecord = z.infer<typeof BulkActionRecord>;

export const BulkActionPage = z.strictObject({
  bulk_actions: z.array(BulkActionRecord),
  ...responsePageFields(),
});

export const BulkActionParams = OrgParams.extend({
  bulk_action_id: z.string().meta({ description: "The bulk action (`bulk_...`).", example: EXAMPLE_ID.bulkAction }),
});

export const BulkActionListQuery = z.object({ limit: queryLimit(20, 100), cursor: queryCursor });
