"use client";
// An evaluation's page (docs/console.md, Evaluations): its status and progress (polled every second
// while it runs), Cancel and "Publish version N" for admins, the export of its cases, the two sides'
// figures side by side, the latency chart, and the cases with the case view.
import dynamic from "next/dynamic";
import Link from "next/link";
import { ConsoleApiError } from "@/components/console/api";
import { formatDate } from "@/components/console/format";
import { useApi } from "@/components/console/use-api";
import { StatusBadge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { BackLink, Mono, PageHeader, ProgressBar } from "@/components/ui/misc";
import { ErrorState, Skeleton, SkeletonRows } from "@/components/ui/states";
import type { EvaluationRecord } from "@/lib/evaluations/schemas";
import { isLive } from "../../evaluation-live";
import { EvaluationActions } from "./evaluation-actions";
import { EvaluationFigures } from "./evaluation-figures";
import { CaseList } from "./case-list";
import { baselineLabel, versionLabel } from "./labels";

const LatencyChart = dynamic(() => import("./latency-chart").then((m) => m.LatencyChart), {
  ssr: false,
  loading: () => <Skeleton className="h-64" />,
});

function Progress({ evaluation: e }: { evaluation: EvaluationRecord }) {
  const { total, done } = e.progress;
  return (
    <div className="mb-6 space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-sm text-zinc-700">
        <StatusBadge status={e.status} />
        <span data-testid="evaluation-progress">
          {done} of {total} cases done
        </span>
        {e.started_at && <span>· started {formatDate(e.started_at)}</span>}
        {e.finished_at && <span>· finished {formatDate(e.finished_at)}</span>}
      </div>
      {isLive(e) && <ProgressBar percent={total ? (done / total) * 100 : 0} label="Evaluation progress" />}
      {e.stop_reason && (
        <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200">
          Stopped: {e.stop_reason}
        </p>
      )}
      {e.error && (
        <p role="note" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-red-200">
          {e.error}
        </p>
      )}
    </div>
  );
}

export function EvaluationView({ agentId, evaluationId }: { agentId: string; evaluationId: string }) {
  const params = { agent_id: agentId, evaluation_id: evaluationId };
  // Polled every second while queued or running.
  const q = useApi(
    "GET /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]",
    { params },
    { refetchInterval: (query) => (isLive(query.state.data) ? 1_000 : false) },
  );
  const agent = useApi("GET /api/v1/organizations/[org_id]/agents/[agent_id]", { params: { agent_id: agentId } });
  const back = <BackLink href={`/agents/${agentId}?tab=evaluations`}>Evaluations</BackLink>;
  if (q.isPending) return <SkeletonRows label="Loading the evaluation" />;
  if (q.error) {
    const missing = q.error instanceof ConsoleApiError && q.error.status === 404;
    return (
      <>
        {back}
        <PageHeader title="Evaluation" />
        <ErrorState error={q.error} title={missing ? "Evaluation not found" : "The evaluation could not be loaded"} />
      </>
    );
  }
  const e = q.data;
  const exportHref = `/exports?kind=evaluation_cases&evaluation_id=${encodeURIComponent(e.evaluation_id)}`;
  return (
    <>
      {back}
      <PageHeader
        title={`Evaluation of ${versionLabel(e)}`}
        description={
          <span className="flex flex-wrap items-center gap-x-2">
            <span>{agent.data?.name ?? agentId}</span>
            <span>· against {baselineLabel(e)}</span>
            <span>
              · {e.source.kind}, {e.source.sample} {e.source.limit}
            </span>
            <Mono className="[overflow-wrap:anywhere]">{e.evaluation_id}</Mono>
          </span>
        }
        actions={
          <>
            <Link href={exportHref} className={buttonClass("secondary", "sm")}>
              Export cases
            </Link>
            <EvaluationActions evaluation={e} agent={agent.data} />
          </>
        }
      />
      <Progress evaluation={e} />
      <EvaluationFigures evaluation={e} />
      <LatencyChart evaluation={e} />
      <CaseList evaluation={e} />
    </>
  );
}
