"use client";
// One run, live: polled every second while the engine works on it, every 5 s while it waits for a
// person (paused, needs_review: someone else may act), and not at all once it is final.
import Link from "next/link";
import type { ReactNode } from "react";
import { Breadcrumb, DetailState } from "@/components/console/detail-state";
import { useApi } from "@/components/console/use-api";
import { endUserOf, UserLink } from "@/components/console/search-box";
import { formatDate, formatNumber, relative } from "@/components/console/format";
import { StatusBadge, statusLabel } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { Card, CopyButton, Details, Mono, PageHeader } from "@/components/ui/misc";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { formatBytes, formatDuration, isActive, isWaiting, RunProgress, type RunDetail } from "../shared";
import { RunControls } from "./controls";
import { ItemsCard } from "./items-card";
import { ReviewQueue } from "./review-queue";
import { RerunButton, RerunLinks } from "./rerun";

export const pollInterval = (status: string | undefined): number | false =>
  !status ? false : isActive(status) ? 1_000 : isWaiting(status) ? 5_000 : false;

/** Changes whenever something the items and the review queue show may have changed. */
const versionOf = (r: RunDetail) =>
  [
    r.status,
    r.item_counts.completed,
    r.item_counts.failed,
    r.item_counts.needs_review,
    r.item_counts.total,
    r.summary.total_processed,
    r.summary.exceptions,
    r.events.length,
  ].join(":");

function Stat({ label, value, id, tone }: { label: string; value: number; id: string; tone?: string }) {
  return (
    <div className="rounded-md bg-zinc-50 px-3 py-2 ring-1 ring-zinc-200">
      <dt className="text-xs font-medium text-zinc-600">{label}</dt>
      <dd data-testid={id} className={`mt-0.5 text-lg font-semibold tabular-nums ${tone ?? "text-zinc-900"}`}>
        {formatNumber(value)}
      </dd>
    </div>
  );
}

function IdWithCopy({ id, label }: { id: string; label: string }) {
  return (
    <span className="flex flex-wrap items-center gap-2">
      <Mono>{id}</Mono>
      <CopyButton value={id} label={label} />
    </span>
  );
}

function Section({ title, children, id }: { title: ReactNode; children: ReactNode; id?: string }) {
  return (
    <Card title={title} className="mt-6">
      <div id={id}>{children}</div>
    </Card>
  );
}

function OutputFiles({ run, loadedAt }: { run: RunDetail; loadedAt: number }) {
  if (run.output_files.length === 0) {
    return (
      <EmptyState title="No output files">
        Workflows with an <Mono>output</Mono> section write a file when a pass ends (completed, needs review or failed).
      </EmptyState>
    );
  }
  return (
    <>
      <Table label="Output files">
        <THead>
          <Tr>
            <Th>Name</Th>
            <Th className="hidden sm:table-cell">Type</Th>
            <Th className="text-right">Size</Th>
            <Th>
              <span className="sr-only">Download</span>
            </Th>
          </Tr>
        </THead>
        <TBody>
          {run.output_files.map((f) => (
            <Tr key={f.filename}>
              <Td className="font-medium break-all">{f.filename}</Td>
              <Td className="hidden font-mono text-xs sm:table-cell">{f.content_type}</Td>
              <Td className="text-right whitespace-nowrap tabular-nums">{formatBytes(f.size_bytes)}</Td>
              <Td className="text-right">
                <a
                  href={f.url}
                  download={f.filename}
                  className={buttonClass("secondary", "sm")}
                  aria-label={`Download ${f.filename}`}
                >
                  Download
                </a>
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      <p className="mt-2 text-xs text-zinc-600">
        Download links are signed for 15 minutes from when this page loaded them (
        {new Date(loadedAt).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" })}, valid until{" "}
        {formatDate(run.output_files[0]!.url_expires_at)}). Reload the page for fresh links.
      </p>
    </>
  );
}

function AuditTrail({ run }: { run: RunDetail }) {
  if (run.events.length === 0) {
    return <EmptyState title="No transitions yet">Every change of the run&apos;s state is recorded here.</EmptyState>;
  }
  return (
    <Table label="Audit trail">
      <THead>
        <Tr>
          <Th>Time</Th>
          <Th>Action</Th>
          <Th>Change</Th>
          <Th className="hidden sm:table-cell">Actor</Th>
          <Th className="hidden md:table-cell">Triggered by</Th>
        </Tr>
      </THead>
      <TBody>
        {run.events.map((e, i) => (
          <Tr key={`${e.at}-${i}`}>
            <Td className="whitespace-nowrap">
              <time dateTime={e.at} title={formatDate(e.at)}>
                {new Date(e.at).toLocaleTimeString("en-GB", { timeZone: "UTC" })}
              </time>
            </Td>
            <Td>
              <span className="font-medium">{e.action}</span>
              <span className="block text-xs break-all text-zinc-600 sm:hidden">{e.actor}</span>
            </Td>
            <Td>
              {e.from ? statusLabel(e.from) : "—"} <span aria-label="to">→</span> {statusLabel(e.to)}
            </Td>
            <Td className="hidden max-w-[14rem] text-xs break-all sm:table-cell">{e.actor}</Td>
            <Td className="hidden text-xs break-all md:table-cell">{e.triggered_by ?? "—"}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

export function RunView({ runId }: { runId: string }) {
  const run = useApi(
    "GET /api/v1/organizations/[org_id]/runs/[run_id]",
    { params: { run_id: runId } },
    { refetchInterval: (q) => pollInterval(q.state.data?.status) },
  );
  const version = run.data ? versionOf(run.data) : "";
  const approvals = useApi(
    "GET /api/v1/organizations/[org_id]/runs/[run_id]/approvals",
    { params: { run_id: runId } },
    { version, enabled: Boolean(run.data), placeholderData: (prev) => prev },
  );

  if (!run.data) {
    return <DetailState query={run} of="run" id={runId} />;
  }
  const r = run.data;
  const waiting = approvals.data?.approvals ?? [];
  return (
    // data-syncing: whether a fetch of this page is under way (tests wait for quiet before they listen).
    <div data-testid="run-page" data-syncing={run.isFetching || approvals.isFetching ? "true" : "false"}>
      <Breadcrumb list={{ href: "/runs", label: "Runs" }} id={runId} />
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            <span>Run of {r.agent_name}</span>
            <span aria-live="polite" data-testid="run-status">
              <StatusBadge status={r.status} className="text-sm" />
            </span>
          </span>
        }
        description={
          isActive(r.status)
            ? "Live: this page updates every second."
            : isWaiting(r.status)
              ? "Waiting for a person: this page checks for changes every 5 seconds."
              : "Finished: this page no longer updates."
        }
        actions={
          <>
            <RunControls run={r} />
            <RerunButton run={r} />
          </>
        }
      />
      <RerunLinks run={r} />

      {r.error && (
        <div role="alert" className="mb-6 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-900 ring-1 ring-red-200">
          <p className="font-semibold">The run failed</p>
          <p className="mt-0.5 break-words" data-testid="run-error">
            {r.error}
          </p>
          {r.allowed_actions.includes("retry") && (
            <p className="mt-1 text-xs">Retry runs the failed items again from the step that failed.</p>
          )}
        </div>
      )}

      <Card title="Progress">
        <RunProgress run={r} label="Run progress" />
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Stat label="Completed" value={r.item_counts.completed} id="count-completed" tone="text-emerald-800" />
          <Stat label="Failed" value={r.item_counts.failed} id="count-failed" tone="text-red-800" />
          <Stat label="Needs review" value={r.item_counts.needs_review} id="count-needs-review" tone="text-amber-900" />
          <Stat label="Total items" value={r.item_counts.total} id="count-total" />
        </dl>
        <h3 className="mt-5 text-xs font-semibold tracking-wide text-zinc-700 uppercase">Summary</h3>
        <dl className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-5">
          <Stat label="Processed" value={r.summary.total_processed} id="summary-total-processed" />
          <Stat label="Successful" value={r.summary.successful} id="summary-successful" />
          <Stat label="Failed" value={r.summary.failed} id="summary-failed" />
          <Stat label="Exceptions" value={r.summary.exceptions} id="summary-exceptions" />
          <Stat label="Skipped" value={r.summary.skipped} id="summary-skipped" />
        </dl>
      </Card>

      <Section title="Details">
        <Details
          items={[
            ["Run ID", <IdWithCopy key="run" id={r.run_id} label="Copy run ID" />],
            [
              "Agent",
              <Link key="agent" href={`/runs?agent_id=${r.agent_id}`} className="text-indigo-700 hover:underline">
                {r.agent_name}
              </Link>,
            ],
            ["Agent ID", <IdWithCopy key="agent-id" id={r.agent_id} label="Copy agent ID" />],
            [
              "Agent version",
              r.agent_version === null ? (
                "—"
              ) : (
                <Link
                  key="version"
                  href={`/agents/${r.agent_id}?tab=versions`}
                  className="text-indigo-700 hover:underline"
                >
                  version {r.agent_version}
                </Link>
              ),
            ],
            ["Trigger", r.trigger_type],
            ["Created", formatDate(r.created_at)],
            [
              "Started",
              r.started_at ? (
                <span key="started">
                  {formatDate(r.started_at)} <span className="text-zinc-600">({relative(r.started_at)})</span>
                </span>
              ) : (
                "not started yet"
              ),
            ],
            ["Completed", r.completed_at ? formatDate(r.completed_at) : "—"],
            [
              "Duration",
              r.started_at
                ? `${formatDuration(r.duration_seconds)}${r.completed_at ? "" : " so far"}`
                : "not started yet",
            ],
          ]}
        />
        {endUserOf(r.inputs) && (
          <p className="mt-4 text-sm text-zinc-700">
            End user: <UserLink userId={endUserOf(r.inputs)!} />
          </p>
        )}
        <details className="mt-4 text-sm">
          <summary className="cursor-pointer font-medium text-zinc-800">Inputs</summary>
          <pre className="mt-2 max-h-72 overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs break-all whitespace-pre-wrap ring-1 ring-zinc-200">
            {JSON.stringify(r.inputs, null, 2)}
          </pre>
        </details>
      </Section>

      <Section title={`Review queue${waiting.length ? ` (${waiting.length})` : ""}`} id="review">
        {approvals.isPending ? (
          <SkeletonRows rows={2} label="Loading the review queue" />
        ) : approvals.error ? (
          <ErrorState error={approvals.error} title="The review queue could not be loaded" />
        ) : (
          <ReviewQueue
            runId={runId}
            runStatus={r.status}
            approvals={waiting}
            decisions={approvals.data?.decisions ?? []}
          />
        )}
      </Section>

      <div className="mt-6">
        <ItemsCard runId={runId} version={version} total={r.item_counts.total} />
      </div>

      <Section title="Output files">
        <OutputFiles run={r} loadedAt={run.dataUpdatedAt} />
      </Section>

      <Section title="Audit trail">
        <AuditTrail run={r} />
      </Section>
    </div>
  );
}
