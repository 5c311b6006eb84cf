// The console's search and the case timeline per end user (docs/console.md, Search; Case timeline):
// what the routes take and answer. Browser-safe: the pages read these types too.
import { z } from "zod";
import { OrgParams, queryCursor, queryLimit, responsePageFields } from "../validate";

/** Longest search text (characters, after trimming): a longer one answers 400 search_query_too_long. */
export const SEARCH_MAX_CHARS = 200;
/** Rows shown per kind; `more` says there were others. */
export const SEARCH_GROUP_SIZE = 10;
/** A `field:value` field name: letters, digits, `_`, `-`, and dots between segments (a nested key). */
export const SEARCH_FIELD_RE = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
export const SEARCH_FIELD_MAX_CHARS = 64;
/** A prefix of an id is looked up from this many characters on (`sess_abc` is 8). */
export const ID_PREFIX_MIN_CHARS = 8;

export const SEARCH_KINDS = [
  "session",
  "message",
  "run",
  "run_item",
  "file",
  "access_key",
  "agent",
  "delivery",
] as const;
export const SearchKind = z.enum(SEARCH_KINDS);
export type SearchKind = z.infer<typeof SearchKind>;

/** Each kind's heading in the results page, in the order the groups are shown. */
export const SEARCH_KIND_LABELS: Record<SearchKind, string> = {
  session: "Sessions",
  message: "Messages",
  run: "Runs",
  run_item: "Run items",
  file: "Files",
  access_key: "Access Keys",
  agent: "Agents",
  delivery: "Callback deliveries",
};

export const SearchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, { error: "type something to search for" })
    .meta({ description: "The text: an id, `field:value`, or words." }),
});

export const SearchHit = z.strictObject({
  kind: SearchKind,
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  at: z.iso.datetime(),
  /** The console page of the object. */
  href: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchGroup = z.strictObject({
  kind: SearchKind,
  label: z.string(),
  /** Newest first, at most SEARCH_GROUP_SIZE. */
  hits: z.array(SearchHit),
  /** There are more matches of this kind than shown: narrow the search. */
  more: z.boolean(),
});

// The text searched for is not echoed: the caller has it, and an answer that repeats an id the
// organization does not hold would read like a leak to anyone checking answers for ids.
export const SearchResult = z.strictObject({
  /** How the text was read: an id or a prefix of one, `field:value`, or words (and an end-user id). */
  mode: z.enum(["id", "field", "text"]),
  /** The one object an id (or a unique prefix of 8+ characters) names: the console opens it. */
  exact: z.strictObject({ kind: SearchKind, id: z.string(), href: z.string() }).nullable(),
  /** The text is an end-user id of a session (or a run's `user_id` input): their case timeline. */
  user: z.strictObject({ user_id: z.string(), href: z.string() }).nullable(),
  groups: z.array(SearchGroup),
});
export type SearchResult = z.infer<typeof SearchResult>;

// The case timeline of one end user.

export const TIMELINE_KINDS = ["access_key", "session", "message", "run", "review", "delivery"] as const;
export const TimelineKind = z.enum(TIMELINE_KINDS);
export type TimelineKind = z.infer<typeof TimelineKind>;

export const TimelineParams = OrgParams.extend({
  user_id: z.string().min(1).max(255).meta({
    description:
      "An end user's id as the triggers named it (a session's `user_id`, or a run's `user_id` input): 1-255 characters.",
    example: "cust_42",
  }),
});
export const TimelineQuery = z.object({
  limit: queryLimit(50, 200),
  cursor: queryCursor,
});

export const UserTimelineEntry = z.strictObject({
  kind: TimelineKind,
  /** The entry's own id: the session, message, run or delivery, or the audit event of a key's trigger or a review. */
  id: z.string(),
  at: z.iso.datetime(),
  summary: z.string(),
  href: z.string(),
});
export type UserTimelineEntry = z.infer<typeof UserTimelineEntry>;

export const TimelinePage = z.strictObject({
  user_id: z.string(),
  entries: z.array(UserTimelineEntry),
  ...responsePageFields(),
});
export type TimelinePage = z.infer<typeof TimelinePage>;
