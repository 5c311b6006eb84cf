"use client";
// A list's filters and page kept in the URL (`/runs?status=needs_review&cursor=...`): links, Back and
// reloads keep them. A value equal to its default is left out of the URL, and changing a filter goes
// back to the first page. Pages follow the server's cursor (docs/console.md, "How the lists page"):
// `cursor` is the current page's, `back` a short stack of the pages' cursors before it (for
// "Previous") and `page` its number when the walk started at the first page (for the rows' range).
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";

/** How many earlier cursors "Previous" remembers; further back, "First page" still works. */
export const BACK_STACK = 5;
/** Cursors are base64url: a dot never occurs in one. */
const SEP = ".";

/** Where a cursor-paged list stands: the current page's cursor, the earlier ones, its number if known. */
export interface PageState {
  cursor: string;
  back: string[];
  page: number | null;
}

export const FIRST_PAGE: PageState = { cursor: "", back: [], page: 1 };

/** The moves of the pager over a list; `state` is where it stands. */
export interface CursorPaging {
  state: PageState;
  limit: number;
  /** To the page after this one, which starts after `nextCursor` (the answer's `next_cursor`). */
  next: (nextCursor: string) => void;
  /** Undefined when the page before is not remembered (a link to a later page, a long walk). */
  previous?: () => void;
  first: () => void;
}

/** The pager's moves over a page state, whoever keeps it (the URL or a component). */
export function pagingMoves(state: PageState, go: (s: PageState) => void): Omit<CursorPaging, "limit" | "state"> {
  const { cursor, back, page } = state;
  const canGoBack = cursor !== "" && (back.length > 0 || page === 2);
  return {
    next: (nextCursor) =>
      go({
        cursor: nextCursor,
        back: cursor ? [...back, cursor].slice(-BACK_STACK) : [],
        page: page === null ? null : page + 1,
      }),
    previous: canGoBack
      ? () =>
          go({
            cursor: back.at(-1) ?? "",
            back: back.slice(0, -1),
            page: page === null ? null : page - 1,
          })
      : undefined,
    first: () => go(FIRST_PAGE),
  };
}

function readPage(sp: URLSearchParams): PageState {
  const cursor = sp.get("cursor") ?? "";
  if (!cursor) return FIRST_PAGE;
  const back = (sp.get("back") ?? "").split(SEP).filter(Boolean).slice(-BACK_STACK);
  const n = Number(sp.get("page"));
  return { cursor, back, page: Number.isInteger(n) && n >= 2 ? n : null };
}

function writePage(next: URLSearchParams, s: PageState) {
  for (const k of ["cursor", "back", "page"]) next.delete(k);
  if (!s.cursor) return;
  next.set("cursor", s.cursor);
  if (s.back.length) next.set("back", s.back.join(SEP));
  if (s.page !== null) next.set("page", String(s.page));
}

export function useUrlParams<F extends Record<string, string>>(
  defaults: F,
  opts: { limit: number; maxLimit?: number },
) {
  const sp = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = Object.fromEntries(Object.entries(defaults).map(([k, d]) => [k, sp.get(k) ?? d])) as F;
  const asked = Number(sp.get("limit"));
  const limit = Number.isInteger(asked) && asked > 0 ? Math.min(asked, opts.maxLimit ?? 100) : opts.limit;
  const navigate = (next: URLSearchParams, how: "push" | "replace") => {
    const qs = next.toString();
    router[how](qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };
  /** Changes filters (a default value leaves the URL) and goes back to the first page. */
  const update = (changes: Partial<F>) => {
    const next = new URLSearchParams(sp.toString());
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === "" || v === defaults[k]) next.delete(k);
      else next.set(k, String(v));
    }
    writePage(next, FIRST_PAGE);
    navigate(next, "replace");
  };
  const state = readPage(sp);
  // A page move is a history entry of its own: Back returns to the page before.
  const go = (s: PageState) => {
    const next = new URLSearchParams(sp.toString());
    writePage(next, s);
    navigate(next, "push");
  };
  const paging: CursorPaging = { state, limit, ...pagingMoves(state, go) };
  /** Whether any filter differs from its default. */
  const filtered = Object.entries(defaults).some(([k, d]) => filters[k] !== d);
  /** The filters that differ from their defaults (what a saved view keeps). */
  const set = Object.fromEntries(Object.entries(filters).filter(([k, v]) => v !== defaults[k])) as Record<
    string,
    string
  >;
  /** Replaces every filter with `values` (a saved view's); the rest go back to their defaults. */
  const replace = (values: Record<string, string>) =>
    update({ ...defaults, ...Object.fromEntries(Object.entries(values).filter(([k]) => k in defaults)) } as Partial<F>);
  return { filters, cursor: state.cursor, limit, update, filtered, paging, set, replace };
}

/** The same paging kept by a component (a list inside a page, such as a run's items). */
export function usePagingState(limit: number): CursorPaging & { reset: () => void } {
  const [state, setState] = useState<PageState>(FIRST_PAGE);
  return { state, limit, ...pagingMoves(state, setState), reset: () => setState(FIRST_PAGE) };
}
