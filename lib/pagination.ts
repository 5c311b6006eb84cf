// Keyset pagination: a list ordered by (a time, id) continues after the last row a page answered,
// so page 1,000 reads what page 1 reads (an index range from the cursor), where an offset reads and
// throws away every row before it. The query parameter is lib/validate.ts's `queryCursor`. The
// cursor is opaque to clients: base64url of the last row's sort value and id. A cursor that does
// not decode answers 400 invalid_request naming `cursor` (docs/api.md, Paging). A cursor only ever
// names a position: the list's own conditions (organization, agent, filters) are applied beside it,
// so a cursor of another list or organization reveals nothing of it.
import { ApiError } from "./errors";

export interface CursorKey {
  /** The sort value of the last row: an instant, or a position (a run item's index). */
  at: Date | number;
  id: string;
}

/** The sort value of the last row as a page writes it: also a text key (a secret's name). */
type SortValue = Date | number | string;

export function encodeCursor(key: { at: SortValue; id: string }): string {
  const at = key.at instanceof Date ? key.at.toISOString() : key.at;
  return Buffer.from(JSON.stringify([at, key.id])).toString("base64url");
}

const invalidCursor = () =>
  new ApiError("invalid_request", "cursor is not a cursor of this list: pass the next_cursor of its previous page.", {
    fields: [{ field: "cursor", message: "is not a cursor of this list" }],
  });

/** The cursor's two parts, [sort value, id], the sort value not yet read. */
function decodeParts(cursor: string): [unknown, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalidCursor();
  const [at, id] = parsed as unknown[];
  if (typeof id !== "string" || !id || id.length > 100) throw invalidCursor();
  return [at, id];
}

export function decodeCursor(cursor: string): CursorKey {
  const [at, id] = decodeParts(cursor);
  if (typeof at === "number") {
    if (!Number.isSafeInteger(at) || at < 0) throw invalidCursor();
    return { at, id };
  }
  if (typeof at !== "string") throw invalidCursor();
  const date = new Date(at);
  if (Number.isNaN(date.getTime()) || date.toISOString() !== at) throw invalidCursor();
  return { at: date, id };
}

/**
 * The Prisma condition for the rows after `cursor` in the order (`field`, id), newest first
 * (`desc`) or oldest first (`asc`). The bound on `field` is what an index on (..., field, id)
 * starts its range at; the OR removes only the rows that share the cursor's value and come before it.
 */
export function afterCursor(
  field: string,
  cursor: string | undefined,
  order: "desc" | "asc" = "desc",
): Record<string, unknown> {
  if (!cursor) return {};
  const { at, id } = decodeCursor(cursor);
  if (typeof at === "number") throw invalidCursor();
  return order === "desc"
    ? { [field]: { lte: at }, OR: [{ [field]: { lt: at } }, { id: { lt: id } }] }
    : { [field]: { gte: at }, OR: [{ [field]: { gt: at } }, { id: { gt: id } }] };
}

/** The rows after `cursor` in the order of a unique position (`field`, ascending): a run's items. */
export function afterPosition(field: string, cursor: string | undefined): Record<string, unknown> {
  if (!cursor) return {};
  const { at } = decodeCursor(cursor);
  if (typeof at !== "number") throw invalidCursor();
  return { [field]: { gt: at } };
}

/**
 * The rows after `cursor` in the ascending order of a text column unique within the list (a
 * secret's name in its organization): its index range starts there, no tie to break.
 */
export function afterText(field: string, cursor: string | undefined): Record<string, unknown> {
  if (!cursor) return {};
  const [at] = decodeParts(cursor);
  if (typeof at !== "string" || !at || at.length > 200) throw invalidCursor();
  return { [field]: { gt: at } };
}

/**
 * A page from `limit + 1` rows fetched in list order: the first `limit`, and the cursor after the
 * last of them when there was one more.
 */
export function pageOf<T extends { id: string }>(
  rows: T[],
  limit: number,
  at: (row: T) => SortValue,
): { rows: T[]; has_more: boolean; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const next_cursor = rows.length > limit && last ? encodeCursor({ at: at(last), id: last.id }) : null;
  return { rows: page, has_more: next_cursor !== null, next_cursor };
}

/** The Prisma condition of a list's `from` (inclusive) and `to` (exclusive) filters on `field`. */
export function instantRange(field: string, range: { from?: Date; to?: Date }): Record<string, unknown> {
  if (!range.from && !range.to) return {};
  return { [field]: { ...(range.from ? { gte: range.from } : {}), ...(range.to ? { lt: range.to } : {}) } };
}
