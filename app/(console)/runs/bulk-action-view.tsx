"use client";
// One bulk action (docs/console.md, Bulk actions): what it selected, who started it, its progress
// (polled every second while it runs) and its outcome by reason.
import { Breadcrumb, DetailState } from "@/components/console/detail-state";
import { useApi } from "@/components/console/use-api";
import { formatDate } from "@/components/console/format";
import { StatusBadge, statusLabel } from "@/components/ui/badge";
import { Card, Details, Mono, PageHeader } from "@/components/ui/misc";
import { BulkOutcome, bulkActionTitle, isRunning, selectionText } from "@/components/console/bulk-actions";

export function BulkActionView({ bulkActionId }: { bulkActionId: string }) {
  const bulk = useApi(
    "GET /api/v1/organizations/[org_id]/bulk-actions/[bulk_action_id]",
    { params: { bulk_action_id: bulkActionId } },
    { enabled: Boolean(bulkActionId), refetchInterval: (q) => (isRunning(q.state.data) ? 1_000 : false) },
  );
  if (!bulk.data) return <DetailState query={bulk} of="bulk action" id={bulkActionId} />;
  const b = bulk.data;
  return (
    <div data-testid="bulk-action-page">
      <Breadcrumb list={{ href: "/runs/bulk", label: "Bulk actions" }} id={bulkActionId} />
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            <span>{bulkActionTitle(b.action)}</span>
            <span aria-live="polite" data-testid="bulk-status">
              <StatusBadge status={b.status} className="text-sm" />
            </span>
          </span>
        }
        description={
          isRunning(b) ? "Running in the background: this page updates every second." : `${statusLabel(b.status)}.`
        }
      />
      <Card title="Outcome">
        <BulkOutcome b={b} />
      </Card>
      <Card title="Details" className="mt-6">
        <Details
          items={[
            ["Id", <Mono key="id">{b.bulk_action_id}</Mono>],
            ["Selection", selectionText(b)],
            ["Matched at the start", String(b.matched)],
            ["Allowed at the start", String(b.allowed)],
            ["Started by", b.started_by.label ?? b.started_by.type],
            ["Started", formatDate(b.started_at)],
            ["Finished", b.completed_at ? formatDate(b.completed_at) : "—"],
          ]}
        />
      </Card>
    </div>
  );
}
