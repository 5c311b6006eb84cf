"use client";
import Link from "next/link";
import { useApi } from "@/components/console/use-api";
import { relative } from "@/components/console/format";
import { useMe } from "@/components/console/me";
import { ShortId } from "@/components/console/short-id";
import { UsageCharts } from "@/components/console/usage-charts-lazy";
import { StatusBadge } from "@/components/ui/badge";
import { Card, PageHeader } from "@/components/ui/misc";
import { expiryText } from "./keys/key-parts";
import { EmptyState, ErrorState, Skeleton } from "@/components/ui/states";

const RUN_STATES = ["pending", "running", "needs_review", "paused", "completed", "failed", "cancelled"] as const;

function Stat({ label, value, href }: { label: string; value: number | undefined; href: string }) {
  return (
    <Link href={href} className="block rounded-lg bg-white p-4 ring-1 ring-zinc-200 hover:ring-indigo-300">
      <p className="text-sm text-zinc-600">{label}</p>
      {value === undefined ? (
        <Skeleton className="mt-2 h-7 w-12" />
      ) : (
        <p className="mt-1 text-2xl font-semibold">{value}</p>
      )}
    </Link>
  );
}

export function OverviewView() {
  const me = useMe();
  const q = useApi("GET /api/v1/organizations/[org_id]/overview", {}, { refetchInterval: 10_000 });
  const d = q.data;
  return (
    <>
      <PageHeader title="Overview" description={`${me.organization.name}: what needs attention now.`} />
      {q.error && <ErrorState error={q.error} title="The overview could not be loaded" className="mb-4" />}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Agents" value={d?.counts.agents} href="/agents" />
        <Stat label="Active Access Keys" value={d?.counts.active_keys} href="/keys" />
        <Stat label="Sessions today" value={d?.counts.sessions_today} href="/sessions" />
        <Stat label="Runs needing review" value={d?.counts.runs.needs_review} href="/runs?status=needs_review" />
      </div>
      <UsageCharts className="mt-6" />
      <Card title="Runs by status" className="mt-6">
        <ul className="flex flex-wrap gap-x-6 gap-y-3">
          {RUN_STATES.map((s) => (
            <li key={s}>
              <Link href={`/runs?status=${s}`} className="flex items-center gap-2 text-sm hover:underline">
                <StatusBadge status={s} />
                <span className="font-semibold tabular-nums">{d ? (d.counts.runs[s] ?? 0) : "…"}</span>
              </Link>
            </li>
          ))}
        </ul>
      </Card>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card title="Runs waiting for review">
          {!d ? (
            <Skeleton className="h-16 w-full" />
          ) : d.needs_review.length === 0 ? (
            <EmptyState title="Nothing waits for review">Items that a review step holds back show up here.</EmptyState>
          ) : (
            <ul className="divide-y divide-zinc-100">
              {d.needs_review.map((r) => (
                <li key={r.run_id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <Link href={`/runs/${r.run_id}`} className="font-medium text-indigo-700 hover:underline">
                    {r.agent_name} <ShortId id={r.run_id} />
                  </Link>
                  <span className="text-zinc-600">
                    {r.items_needs_review} item{r.items_needs_review === 1 ? "" : "s"} · {relative(r.updated_at)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Recent errors">
          {!d ? (
            <Skeleton className="h-16 w-full" />
          ) : d.recent_errors.length === 0 ? (
            <EmptyState title="No recent errors">Failed runs and replies that ended in error show up here.</EmptyState>
          ) : (
            <ul className="divide-y divide-zinc-100">
              {d.recent_errors.map((e) => (
                <li key={e.id} className="py-2 text-sm">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <Link
                      href={e.kind === "run" ? `/runs/${e.id}` : `/sessions/${e.session_id}`}
                      className="font-medium text-indigo-700 hover:underline"
                    >
                      {e.agent_name}: {e.kind === "run" ? "run failed" : "reply failed"}{" "}
                      <ShortId id={e.kind === "run" ? e.id : (e.session_id ?? e.id)} />
                    </Link>
                    <span className="text-zinc-600">{relative(e.at)}</span>
                  </div>
                  <p className="mt-0.5 break-words text-zinc-700">{e.message}</p>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
      {d && d.expiring_keys.length > 0 && (
        <Card title="Keys expiring within 7 days" className="mt-6">
          <ul className="divide-y divide-zinc-100">
            {d.expiring_keys.map((k) => (
              <li key={k.key_id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <Link href={`/keys/${k.key_id}`} className="font-medium text-indigo-700 hover:underline">
                  {k.name}
                </Link>
                <span className="text-zinc-600">{expiryText(k.expires_at)}</span>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}
