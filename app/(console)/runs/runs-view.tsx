"use client";
// The runs list: filters in the URL (docs/console.md, "List filters"), saved views, and a DataTable
// whose `selected`/`onSelectedChange` props and the header's `actions` slot are where bulk actions
// and an export button plug in.
import Link from "next/link";
import { useApiPage } from "@/components/console/use-api";
import { DataTable, RowLink, type DataColumn } from "@/components/console/data-table";
import type { FilterField } from "@/components/console/filter-bar";
import { ExportButton } from "@/components/console/export-button";
import { useIsAdmin } from "@/components/console/me";
import { EvaluateListButton } from "../agents/[agent_id]/evaluate-list";
import { FilteredListPage } from "@/components/console/list-page";
import { LiveToggle, useLiveUpdates } from "@/components/console/live";
import { useUrlParams } from "@/components/console/url-params";
import { formatDate, formatNumber, relative } from "@/components/console/format";
import { statusLabel, StatusBadge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { Mono } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { BulkBar, useBulkSelection } from "@/components/console/bulk-actions";
import { formatDuration, ItemCounts, RUN_STATUSES, RunProgress, type RunListItem } from "./shared";
import { useAllAgents } from "@/components/console/all-agents";

const LIMIT = 20;
const NO_FILTERS = { status: "", agent_id: "", from: "", to: "", user_id: "", has_error: "" };

export const RUN_COLUMNS: DataColumn<RunListItem>[] = [
  { header: "Status", from: "sm", cell: (r) => <StatusBadge status={r.status} /> },
  {
    header: "Agent",
    className: "min-w-[8rem]",
    cell: (r) => (
      <>
        <RowLink href={`/runs/${r.run_id}`} id={r.run_id} label={r.agent_name} kind="run" />
        <StatusBadge status={r.status} className="mt-1 sm:hidden" />
      </>
    ),
  },
  {
    header: "Progress",
    cell: (r) => (
      <>
        <RunProgress run={r} label={`Progress of run ${r.run_id}`} />
        <p className="mt-1 text-xs text-zinc-600 tabular-nums md:hidden">
          {formatNumber(r.item_counts.completed + r.item_counts.failed)} of {formatNumber(r.item_counts.total)} items
          {r.item_counts.needs_review ? `, ${formatNumber(r.item_counts.needs_review)} to review` : ""}
        </p>
      </>
    ),
  },
  { header: "Items", from: "md", cell: (r) => <ItemCounts counts={r.item_counts} /> },
  { header: "Trigger", from: "lg", cell: (r) => r.trigger_type },
  {
    header: "Started",
    from: "sm",
    className: "whitespace-nowrap",
    cell: (r) =>
      r.started_at ? (
        <time dateTime={r.started_at} title={formatDate(r.started_at)}>
          {relative(r.started_at)}
        </time>
      ) : (
        <span className="text-zinc-600">not started</span>
      ),
  },
  {
    header: "Duration",
    from: "sm",
    className: "whitespace-nowrap tabular-nums",
    cell: (r) => (r.started_at ? formatDuration(r.duration_seconds) : "—"),
  },
];

export function RunsView() {
  const admin = useIsAdmin();
  const url = useUrlParams(NO_FILTERS, { limit: LIMIT });
  const { status, agent_id: agentId, ...more } = url.filters;
  const agents = useAllAgents({ staleTime: 60_000 });
  const runs = useApiPage("GET /api/v1/organizations/[org_id]/runs", {
    query: { ...more, limit: url.limit, cursor: url.cursor, status, agent_id: agentId },
  });
  useLiveUpdates(["runs"]);
  // Checked rows, or everything the filter matches (a bulk action's selection: ./bulk-actions.tsx).
  const filter = Object.fromEntries(Object.entries(url.filters).filter(([, v]) => v));
  const selection = useBulkSelection(JSON.stringify(filter));
  const workflowAgents = (agents.data?.agents ?? []).filter((a) => a.kind === "workflow");
  const fields: FilterField[] = [
    { kind: "status", options: RUN_STATUSES.map((s) => [s, statusLabel(s)] as const) },
    { kind: "agent", agents: workflowAgents, pending: agents.isPending },
    { kind: "dates" },
    { kind: "user", hint: "The run's user_id input." },
    { kind: "has_error" },
  ];

  return (
    <FilteredListPage
      list="runs"
      url={url}
      fields={fields}
      filterLabel="Filter runs"
      title="Runs"
      actions={
        <>
          <LiveToggle />
          <Link href="/runs/bulk" className={buttonClass("secondary")}>
            Bulk actions
          </Link>
          <ExportButton kind="runs" />
          {admin && <EvaluateListButton kind="runs" filters={url.set} />}
        </>
      }
      note={<BulkBar selection={selection} filter={filter} filtered={url.filtered} />}
      description="Every run of this organization's workflow agents, newest first. Open one to control it, review its items and download its output."
      query={runs}
      rows={(d) => d.runs}
      noun="runs"
      noMatch={`${status ? `No ${statusLabel(status)} runs` : "No runs"}${agentId ? " for this agent" : ""} match.`}
      none={
        <EmptyState title="No runs yet">
          A run starts when a workflow agent is triggered: <Mono>POST /api/agents/webhook/&lt;agent_id&gt;</Mono> with
          an Access Key, or from the agent&apos;s test console.
        </EmptyState>
      }
    >
      {(rows) => (
        <DataTable
          label="Runs"
          columns={RUN_COLUMNS}
          rows={rows}
          rowKey={(r) => r.run_id}
          selected={selection.ids}
          onSelectedChange={selection.replace}
          selectionLocked={selection.allMatching}
          rowLabel={(r) => `Select run ${r.run_id} of ${r.agent_name}`}
        />
      )}
    </FilteredListPage>
  );
}
