"use client";
// The agent page's Evaluations tab: the agent's evaluations, newest first, a page at a time (the
// page in the URL), each linked to its page; refreshed every 2 s while one of the page runs.
import Link from "next/link";
import { DataTable, type DataColumn } from "@/components/console/data-table";
import { formatDate, formatNumber } from "@/components/console/format";
import { ListResult } from "@/components/console/list-result";
import { useApiPage } from "@/components/console/use-api";
import { StatusBadge } from "@/components/ui/badge";
import { ProgressBar } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import type { AgentRecord } from "@/lib/agents/schemas";
import type { EvaluationRecord } from "@/lib/evaluations/schemas";
import { EvaluateDraftButton } from "./evaluate-draft";
import { isLive } from "./evaluation-live";
import { linkClass } from "./links";
import type { AgentPageUrl } from "./page-url";

const sides = (e: EvaluationRecord) =>
  `Version ${e.candidate.version}${e.candidate.draft ? " (draft)" : ""} vs ${
    e.baseline.kind === "recorded" ? "recorded" : `version ${e.baseline.version}`
  }`;

export function EvaluationsTab({ agent, url }: { agent: AgentRecord; url: AgentPageUrl }) {
  // Refreshed every 2 s while one of the page runs.
  const q = useApiPage(
    "GET /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations",
    { params: { agent_id: agent.agent_id }, query: { limit: url.limit, cursor: url.cursor } },
    { refetchInterval: (query) => (query.state.data?.evaluations.some(isLive) ? 2_000 : false) },
  );
  const columns: DataColumn<EvaluationRecord>[] = [
    {
      header: "Evaluation",
      cell: (e) => (
        <Link href={`/agents/${agent.agent_id}/evaluations/${e.evaluation_id}`} className={linkClass}>
          {sides(e)}
        </Link>
      ),
    },
    { header: "Status", cell: (e) => <StatusBadge status={e.status} /> },
    {
      header: "Progress",
      from: "sm",
      className: "min-w-32",
      cell: (e) =>
        isLive(e) ? (
          <ProgressBar
            label={`Progress of ${sides(e)}`}
            percent={(e.progress.done / Math.max(1, e.progress.total)) * 100}
          />
        ) : (
          `${e.progress.done} / ${e.progress.total}`
        ),
    },
    {
      header: "Counts",
      from: "md",
      cell: (e) =>
        `${formatNumber(e.counts.passed)} passed · ${formatNumber(e.counts.failed)} failed · ${formatNumber(e.counts.changed)} changed`,
    },
    {
      header: "Created",
      from: "md",
      className: "[overflow-wrap:anywhere]",
      cell: (e) => `${e.created_by ?? "—"} · ${formatDate(e.created_at)}`,
    },
  ];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-2xl text-sm text-zinc-700">
          Real {agent.kind === "workflow" ? "runs" : "sessions"} replayed against a version, beside what was recorded or
          another version.
        </p>
        <EvaluateDraftButton agent={agent} />
      </div>
      <ListResult
        query={q}
        rows={(d) => d.evaluations}
        noun="evaluations"
        paging={url.paging}
        empty={
          <EmptyState title="No evaluations yet">Evaluate the draft from here or from the Versions tab.</EmptyState>
        }
      >
        {(rows) => <DataTable label="Evaluations" columns={columns} rows={rows} rowKey={(e) => e.evaluation_id} />}
      </ListResult>
    </div>
  );
}
