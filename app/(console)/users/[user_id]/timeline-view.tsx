"use client";
// The case timeline of one end user (docs/console.md, Case timeline): everything about them,
// newest first, a page at a time; "Export" opens the exports page prefilled for them.
import Link from "next/link";
import { useApiPages } from "@/components/console/use-api";
import { formatDate, relative } from "@/components/console/format";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClass } from "@/components/ui/button";
import { Card, Mono, PageHeader } from "@/components/ui/misc";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import type { TimelineKind } from "@/lib/search/schemas";

const KIND_LABELS: Record<TimelineKind, string> = {
  access_key: "Access Key",
  session: "Session",
  message: "Message",
  run: "Run",
  review: "Review",
  delivery: "Callback",
};

export function TimelineView({ userId }: { userId: string }) {
  const timeline = useApiPages("GET /api/v1/organizations/[org_id]/users/[user_id]/timeline", {
    params: { user_id: userId },
    query: { limit: 50 },
  });
  const entries = timeline.data?.pages.flatMap((p) => p.entries) ?? [];
  const exportHref = `/exports?${new URLSearchParams({ kind: "user_timeline", user_id: userId })}`;
  return (
    <div className="space-y-6">
      <PageHeader
        title={
          <>
            End user <Mono className="break-all">{userId}</Mono>
          </>
        }
        description="Everything this organization holds about one end user, newest first: the Access Keys that acted for them, their sessions and messages, the runs whose inputs name them, review decisions and callback deliveries."
        actions={
          <Link href={exportHref} className={buttonClass("secondary", "sm")}>
            Export
          </Link>
        }
      />
      <Card title="Timeline">
        {timeline.isPending ? (
          <SkeletonRows rows={6} label="Loading the timeline" />
        ) : timeline.error ? (
          <ErrorState error={timeline.error} />
        ) : entries.length === 0 ? (
          <EmptyState title="Nothing about this end user">
            No session, run or callback of this organization names this user id.
          </EmptyState>
        ) : (
          <>
            <ol className="-my-2 divide-y divide-zinc-100" aria-label="Timeline, newest first">
              {entries.map((e) => (
                <li key={e.id} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-baseline sm:gap-3">
                  <time dateTime={e.at} title={relative(e.at)} className="shrink-0 text-xs text-zinc-600 sm:w-44">
                    {formatDate(e.at)}
                  </time>
                  <span className="shrink-0 sm:w-28">
                    <Badge tone={e.kind === "review" ? "amber" : e.kind === "access_key" ? "indigo" : "zinc"}>
                      {KIND_LABELS[e.kind]}
                    </Badge>
                  </span>
                  <Link href={e.href} className="min-w-0 text-sm break-words text-indigo-700 hover:underline">
                    {e.summary}
                  </Link>
                </li>
              ))}
            </ol>
            {timeline.hasNextPage && (
              <div className="mt-4">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={timeline.isFetchingNextPage}
                  onClick={() => timeline.fetchNextPage()}
                >
                  {timeline.isFetchingNextPage ? "Loading…" : "Show older"}
                </Button>
              </div>
            )}
          </>
        )}
      </Card>
    </div>
  );
}
