// Saved views (docs/console.md, "Saved views"): a member's named filters of a console list. A view's
// filters are the list's URL filters as written (strings), checked by the list's own filter schema,
// so a view cannot hold what the list would refuse.
import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import { DeliveryListFilters } from "../callbacks/schemas";
import { OrgSessionsFilters } from "../conversations/schemas";
import { AgentFilesFilters } from "../files/schemas";
import { AuditFilters } from "../orgs/schemas";
import { OrgRunsFilters } from "../runs/schemas";
import {
  idString,
  OrgParams,
  parseWith,
  queryCursor,
  queryLimit,
  responseId,
  responsePageFields,
  responseTimestamp,
} from "../validate";

export const VIEW_LISTS = ["sessions", "runs", "deliveries", "audit", "files"] as const;
export const ViewList = z.enum(VIEW_LISTS);
export type ViewList = z.infer<typeof ViewList>;

/** At most this many views per member and list. */
export const VIEWS_PER_LIST = 100;

/** Each list's filters; the uploaded files list keeps its agent in the URL too. */
export const VIEW_FILTERS = {
  sessions: OrgSessionsFilters,
  runs: OrgRunsFilters,
  deliveries: DeliveryListFilters,
  audit: AuditFilters,
  files: AgentFilesFilters.extend({ agent_id: idString("agt", "agent").optional() }),
} satisfies Record<ViewList, z.ZodObject>;

const ViewName = z.string().trim().min(1).max(80);
const ViewFilters = z
  .record(z.string().max(40), z.string().max(256))
  .refine((o) => Object.keys(o).length <= 20, "has more than 20 filters");

/** Throws invalid_request naming `filters.<field>` when `filters` is not a filter set of `list`. */
export function checkViewFilters(list: ViewList, filters: Record<string, string>) {
  parseWith(z.strictObject({ filters: VIEW_FILTERS[list].strict() }), { filters }, "view");
}

export const ViewsQuery = z.object({
  list: ViewList.meta({ description: "The console list: `sessions`, `runs`, `deliveries`, `audit` or `files`." }),
  limit: queryLimit(100, 200),
  cursor: queryCursor,
});

export const CreateViewBody = z.strictObject({
  list: ViewList,
  name: ViewName,
  filters: ViewFilters.default({}),
  shared: z.boolean().default(false),
});
export type CreateViewBody = z.infer<typeof CreateViewBody>;

export const UpdateViewBody = z.strictObject({
  name: ViewName.optional(),
  filters: ViewFilters.optional(),
  shared: z.boolean().optional(),
});
export type UpdateViewBody = z.infer<typeof UpdateViewBody>;

export const ViewParams = OrgParams.extend({
  view_id: z.string().meta({ description: "The saved view (`view_...`).", example: EXAMPLE_ID.view }),
});

export const ViewRecord = z.strictObject({
  view_id: responseId("view"),
  list: ViewList,
  name: z.string(),
  filters: z.record(z.string(), z.string()),
  shared: z.boolean(),
  owner_id: z.string(),
  /** The signed-in member made it. */
  mine: z.boolean(),
  /** The signed-in member may rename or delete it: its owner, or an admin for a shared view. */
  editable: z.boolean(),
  created_at: responseTimestamp(),
});
export type ViewRecord = z.infer<typeof ViewRecord>;

export const ViewPage = z.strictObject({
  views: z.array(ViewRecord),
  ...responsePageFields(),
});

export const DeletedView = z.strictObject({ view_id: z.string(), deleted: z.literal(true) });
