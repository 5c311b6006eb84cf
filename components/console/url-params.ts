"use client";
// A list page's filters, page offset and size kept in the URL (`/runs?status=needs_review&offset=20`):
// links, Back and reloads keep them. A value equal to its default is left out of the URL, and
// changing a filter goes back to the first page.
import { usePathname, useRouter, useSearchParams } from "next/navigation";

export function useUrlParams<F extends Record<string, string>>(
  defaults: F,
  opts: { limit: number; maxLimit?: number },
) {
  const sp = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = Object.fromEntries(Object.entries(defaults).map(([k, d]) => [k, sp.get(k) ?? d])) as F;
  const offset = Math.max(0, Math.floor(Number(sp.get("offset")) || 0));
  const asked = Number(sp.get("limit"));
  const limit = Number.isInteger(asked) && asked > 0 ? Math.min(asked, opts.maxLimit ?? 100) : opts.limit;
  const update = (changes: Partial<F> & { offset?: number }) => {
    const next = new URLSearchParams(sp.toString());
    for (const [k, v] of Object.entries(changes)) {
      if (k === "offset") continue;
      if (v === undefined || v === "" || v === defaults[k]) next.delete(k);
      else next.set(k, String(v));
    }
    if (changes.offset) next.set("offset", String(changes.offset));
    else next.delete("offset");
    const qs = next.toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };
  /** Whether any filter differs from its default. */
  const filtered = Object.entries(defaults).some(([k, d]) => filters[k] !== d);
  return { filters, offset, limit, update, filtered };
}
