"use client";
// The organization's bulk actions, newest first (docs/console.md, Bulk actions): what each did, to
// what, with which outcome, who started it and when; each opens its own page. Live while one runs.
import Link from "next/link";
import { bulkActionTitle, selectionText } from "@/components/console/bulk-actions";
import { DataTable, type DataColumn } from "@/components/console/data-table";
import { EmailText } from "@/components/console/email-text";
import { formatDate, formatNumber, relative } from "@/components/console/format";
import { ListPage } from "@/components/console/list-page";
import { useApiPage } from "@/components/console/use-api";
import { useUrlParams } from "@/components/console/url-params";
import { StatusBadge } from "@/components/ui/badge";
import { BackLink } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import type { BulkActionRecord as BulkAction } from "@/lib/bulk/schemas";

const LIMIT = 20;

const COLUMNS: DataColumn<BulkAction>[] = [
  {
    header: "Action",
    className: "min-w-[9rem]",
    cell: (b) => (
      <>
        <Link
          href={`/runs/bulk/${b.bulk_action_id}`}
          className="font-medium text-indigo-700 hover:underline"
          aria-label={`${bulkActionTitle(b.action)}, bulk action ${b.bulk_action_id}`}
        >
          {bulkActionTitle(b.action)}
        </Link>
        <p className="text-xs [overflow-wrap:anywhere] text-zinc-600 md:hidden">{selectionText(b)}</p>
        <StatusBadge status={b.status} className="mt-1 sm:hidden" />
      </>
    ),
  },
  { header: "Selection", from: "md", className: "[overflow-wrap:anywhere]", cell: (b) => selectionText(b) },
  {
    header: "Outcome",
    cell: (b) => (
      <span className="text-sm tabular-nums" data-testid="bulk-row-counts">
        {formatNumber(b.counts.done)} moved · {formatNumber(b.counts.skipped)} skipped · {formatNumber(b.counts.failed)}{" "}
        failed
      </span>
    ),
  },
  { header: "State", from: "sm", cell: (b) => <StatusBadge status={b.status} /> },
  {
    header: "Started by",
    from: "lg",
    cell: (b) => <EmailText text={b.started_by.label ?? b.started_by.type} />,
  },
  {
    header: "Started",
    from: "sm",
    className: "whitespace-nowrap",
    cell: (b) => (
      <time dateTime={b.started_at} title={formatDate(b.started_at)}>
        {relative(b.started_at)}
      </time>
    ),
  },
];

export function BulkActionsView() {
  const url = useUrlParams({}, { limit: LIMIT });
  const list = useApiPage(
    "GET /api/v1/organizations/[org_id]/bulk-actions",
    { query: { limit: url.limit, cursor: url.cursor } },
    {
      // Polled every 2 s while one of the page runs.
      refetchInterval: (q) =>
        q.state.data?.bulk_actions.some((b) => b.status === "pending" || b.status === "running") ? 2_000 : false,
    },
  );
  return (
    <>
      <BackLink href="/runs">Runs</BackLink>
      <ListPage
        title="Bulk actions"
        description="Every bulk action of this organization, newest first: on runs (cancel, pause, resume, retry) and on Access Keys (revoke)."
        query={list}
        rows={(d) => d.bulk_actions}
        noun="bulk actions"
        paging={url.paging}
        filtered={false}
        onClear={() => undefined}
        none={
          <EmptyState title="No bulk actions yet">
            Check runs on the Runs page (or keys on the Access Keys page) to act on many at once.
          </EmptyState>
        }
      >
        {(rows) => <DataTable label="Bulk actions" columns={COLUMNS} rows={rows} rowKey={(b) => b.bulk_action_id} />}
      </ListPage>
    </>
  );
}
