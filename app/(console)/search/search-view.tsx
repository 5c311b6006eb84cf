"use client";
// Search results (docs/console.md, Search): grouped by kind, newest first; an id that names one
// object opens it at once.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useApi } from "@/components/console/use-api";
import { userTimelineHref } from "@/components/console/search-box";
import { formatDate, relative } from "@/components/console/format";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { Card, Mono, PageHeader } from "@/components/ui/misc";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";

const HOW =
  "An id (or its first 8+ characters) opens the object; an end-user id lists their sessions and runs; field:value searches session metadata and run inputs; words search messages and run items.";

export function SearchView({ q }: { q: string }) {
  const router = useRouter();
  // Kept a minute, the text is the key.
  const result = useApi(
    "GET /api/v1/organizations/[org_id]/search",
    { query: { q } },
    { enabled: q.trim().length > 0, retry: false, staleTime: 60_000 },
  );
  const exact = result.data?.exact;
  useEffect(() => {
    if (exact) router.replace(exact.href);
  }, [exact, router]);

  return (
    <div className="space-y-6">
      <PageHeader title={q ? <>Search: “{q}”</> : "Search"} description={HOW} />
      {!q ? (
        <EmptyState title="Type in the search box">Press / anywhere in the console to search.</EmptyState>
      ) : result.isPending ? (
        <SkeletonRows rows={5} label="Searching" />
      ) : result.error ? (
        <ErrorState error={result.error} title="The search was refused" />
      ) : exact ? (
        <p className="text-sm text-zinc-700" role="status">
          Opening{" "}
          <Link href={exact.href} className="font-mono text-indigo-700 hover:underline">
            {exact.id}
          </Link>
          …
        </p>
      ) : (
        <>
          {result.data.user && (
            <Card title="End user">
              <p className="text-sm text-zinc-700">
                <Mono>{result.data.user.user_id}</Mono> has sessions or runs in this organization.{" "}
                <Link href={userTimelineHref(result.data.user.user_id)} className={buttonClass("secondary", "sm")}>
                  Open the case timeline
                </Link>
              </p>
            </Card>
          )}
          {result.data.groups.length === 0 ? (
            <EmptyState title="Nothing found">{HOW}</EmptyState>
          ) : (
            result.data.groups.map((g) => (
              <Card
                key={g.kind}
                title={`${g.label} (${g.hits.length}${g.more ? "+" : ""})`}
                className="overflow-hidden"
              >
                <ul className="-my-2 divide-y divide-zinc-100" aria-label={g.label}>
                  {g.hits.map((h) => (
                    <li key={h.id} className="py-2">
                      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                        <Link href={h.href} className="min-w-0 font-medium break-all text-indigo-700 hover:underline">
                          {h.title}
                        </Link>
                        <span className="text-xs text-zinc-600" title={formatDate(h.at)}>
                          {relative(h.at)}
                        </span>
                      </div>
                      <p className="text-xs text-zinc-600">
                        <Mono className="break-all">{h.id}</Mono>
                      </p>
                      {h.summary && <p className="mt-0.5 text-sm break-words text-zinc-800">{h.summary}</p>}
                    </li>
                  ))}
                </ul>
                {g.more && (
                  <p className="mt-3 text-xs text-zinc-600">
                    <Badge>more</Badge> Only the newest {g.hits.length} are shown: narrow the search.
                  </p>
                )}
              </Card>
            ))
          )}
        </>
      )}
    </div>
  );
}
