// The run record (docs/workflows.md, Run fields), from a Run row (and, for a single run, its output files and audit trail).
import type { AuditEvent, OutputFile, Run } from "../generated/prisma/client";
import { signDownload } from "../files/signing";
import type { RunStatus } from "./statuses";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function progressPercent(r: Pick<Run, "status" | "itemsTotal" | "itemsCompleted" | "itemsFailed">): number {
  if (r.itemsTotal === 0) return r.status === "completed" ? 100 : 0;
  return Math.round(((r.itemsCompleted + r.itemsFailed) / r.itemsTotal) * 10_000) / 100;
}

/** Wall-clock seconds from start to end; 0 before the start, the time so far while unfinished. */
export function durationSeconds(r: Pick<Run, "startedAt" | "completedAt">, now = new Date()): number {
  if (!r.startedAt) return 0;
  const end = r.completedAt ?? now;
  return Math.max(0, Math.round((end.getTime() - r.startedAt.getTime()) / 10) / 100);
}

/**
 * The columns a run's public record and list item are made of, as a Prisma `select`: never the
 * inputs and the definition, which can be large and would be read from their TOAST tables for
 * every row of a list's page.
 */
export const RUN_VIEW_SELECT = {
  id: true,
  agentId: true,
  status: true,
  triggerType: true,
  error: true,
  totalProcessed: true,
  successful: true,
  failed: true,
  exceptions: true,
  skipped: true,
  itemsCompleted: true,
  itemsFailed: true,
  itemsReview: true,
  itemsTotal: true,
  startedAt: true,
  completedAt: true,
  agentVersion: true,
} as const;
export type RunView = Pick<Run, keyof typeof RUN_VIEW_SELECT>;
export type OutputFileView = Pick<OutputFile, "filename" | "contentType" | "sizeBytes" | "storageKey">;
export type RunEventRow = Pick<AuditEvent, "action" | "actorType" | "actorLabel" | "data" | "createdAt">;

export function runListItem(r: RunView) {
  return {
    run_id: r.id,
    agent_id: r.agentId,
    // Written only through RUN_MOVES (./state.ts): always one of RUN_STATUSES.
    status: r.status as RunStatus,
    progress_percent: progressPercent(r),
    started_at: iso(r.startedAt),
    completed_at: iso(r.completedAt),
    duration_seconds: durationSeconds(r),
    trigger_type: r.triggerType,
    error: r.error ?? null,
    agent_version: r.agentVersion ?? null,
    summary: {
      total_processed: r.totalProcessed,
      successful: r.successful,
      failed: r.failed,
      exceptions: r.exceptions,
      skipped: r.skipped,
    },
    item_counts: {
      completed: r.itemsCompleted,
      failed: r.itemsFailed,
      needs_review: r.itemsReview,
      total: r.itemsTotal,
    },
  };
}

export interface RunEvent {
  action: string;
  from: RunStatus | null;
  to: RunStatus;
  actor: string;
  triggered_by: string | null;
  at: string;
}

export function runEvents(events: RunEventRow[]): RunEvent[] {
  return events
    .map((e) => ({
      e,
      d: e.data as { from?: RunStatus | null; to: RunStatus; seq?: number; triggered_by?: string | null },
    }))
    .sort((a, b) => (a.d.seq ?? 0) - (b.d.seq ?? 0))
    .map(({ e, d }) => ({
      action: e.action.replace(/^run\./, ""),
      from: d.from ?? null,
      to: d.to,
      actor: e.actorLabel ?? e.actorType,
      triggered_by: d.triggered_by ?? null,
      at: e.createdAt.toISOString(),
    }));
}

export function runRecord(r: RunView, opts: { outputFiles: OutputFileView[]; events: RunEventRow[]; baseUrl: string }) {
  return {
    ...runListItem(r),
    output_files: opts.outputFiles.map((f) => ({
      filename: f.filename,
      content_type: f.contentType,
      size_bytes: Number(f.sizeBytes),
      ...signDownload({
        storageKey: f.storageKey,
        filename: f.filename,
        contentType: f.contentType,
        baseUrl: opts.baseUrl,
      }),
    })),
    events: runEvents(opts.events),
  };
}
