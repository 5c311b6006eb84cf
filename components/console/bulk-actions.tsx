"use client";
// Bulk actions (docs/console.md, Bulk actions) on the runs list and the Access Keys list: checked rows
// (or, for runs, "everything matching this filter"), a dry run in a dialog (what matches, what the
// action is allowed on and why not the rest, ten of them), then the background job's progress,
// polled every second until it is done.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { apiKey, request, useApi } from "@/components/console/use-api";
import { formatNumber } from "@/components/console/format";
import { StatusBadge, statusLabel } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Mono, ProgressBar } from "@/components/ui/misc";
import { ErrorState, SkeletonRows } from "@/components/ui/states";
import type {
  BulkActionRecord as BulkAction,
  BulkActionName,
  BulkPreview as BulkPreviewAnswer,
  BulkSelection as BulkSelectionBody,
} from "@/lib/bulk/schemas";
import { CONTROL_VALUES } from "@/lib/runs/schemas";

const LABEL: Record<BulkActionName, string> = {
  cancel: "Cancel",
  pause: "Pause",
  resume: "Resume",
  retry: "Retry",
  revoke: "Revoke",
};
const VERB: Record<BulkActionName, string> = {
  cancel: "cancelled",
  pause: "paused",
  resume: "resumed",
  retry: "retried",
  revoke: "revoked",
};
/** The bar's order for runs: the common ones first. */
const RUN_ORDER = (["cancel", "pause", "resume", "retry"] as const).filter((a) =>
  (CONTROL_VALUES as readonly string[]).includes(a),
);

export type BulkTarget = "run" | "access_key";
/** The words of each kind of target. */
const NOUN: Record<BulkTarget, { one: string; many: string; title: string; href: (id: string) => string }> = {
  run: { one: "run", many: "runs", title: "Runs", href: (id) => `/runs/${id}` },
  access_key: { one: "key", many: "keys", title: "Access Keys", href: (id) => `/keys/${id}` },
};
const targetOf = (action: BulkActionName): BulkTarget => (action === "revoke" ? "access_key" : "run");
const counted = (n: number, target: BulkTarget) =>
  `${formatNumber(n)} ${n === 1 ? NOUN[target].one : NOUN[target].many}`;

/** An action's name as a list shows it ("Cancel runs", "Revoke keys"). */
export const bulkActionTitle = (action: BulkActionName) => `${LABEL[action]} ${NOUN[targetOf(action)].many}`;

/** What a bulk action selected, in words. */
export function selectionText(b: BulkAction): string {
  if ("filter" in b.selection) {
    const entries = Object.entries(b.selection.filter);
    return entries.length
      ? `Every ${NOUN[b.target_type].one} matching ${entries.map(([k, v]) => `${k} = ${String(v)}`).join(", ")} created before it started`
      : `Every ${NOUN[b.target_type].one} created before it started`;
  }
  return "run_ids" in b.selection
    ? `${formatNumber(b.selection.run_ids.length)} checked runs`
    : `${formatNumber(b.selection.key_ids.length)} checked Access Keys`;
}

export interface BulkSelection {
  ids: ReadonlySet<string>;
  /** Everything matching the list's filter, not only the checked rows. */
  allMatching: boolean;
  /** The checked rows (DataTable's onSelectedChange). */
  replace(ids: Set<string>): void;
  selectAllMatching(): void;
  clear(): void;
}

/** A list's selection; cleared when the filter changes (it selected rows of another list). */
export function useBulkSelection(filterKey: string): BulkSelection {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const [key, setKey] = useState(filterKey);
  if (key !== filterKey) {
    setKey(filterKey);
    setIds(new Set());
    setAllMatching(false);
  }
  return {
    ids,
    allMatching,
    replace: (next) => setIds(next),
    selectAllMatching: () => setAllMatching(true),
    clear: () => {
      setIds(new Set());
      setAllMatching(false);
    },
  };
}

/**
 * The bar over a list while something is selected, its dialog, and the progress of the last action
 * started. Runs: the four controls, and "everything matching this filter" (`filter`); Access Keys:
 * revoke the checked keys ("Revoke 3 keys").
 */
export function BulkBar({
  target = "run",
  selection,
  filter,
  filtered = false,
}: {
  target?: BulkTarget;
  selection: BulkSelection;
  /** The list's filter, as its query sends it (empty values are left out); none: checked rows only. */
  filter?: Record<string, string>;
  /** Whether the list is filtered (else "all matching" means every run). */
  filtered?: boolean;
}) {
  const [action, setAction] = useState<BulkActionName | null>(null);
  const [started, setStarted] = useState<string | null>(null);
  const count = selection.ids.size;
  const ids = [...selection.ids];
  const body: BulkSelectionBody =
    selection.allMatching && filter
      ? { filter: Object.fromEntries(Object.entries(filter).filter(([, v]) => v)) }
      : target === "run"
        ? { run_ids: ids }
        : { key_ids: ids };
  const active = selection.allMatching || count > 0;
  const noun = NOUN[target];
  const actions: BulkActionName[] = target === "run" ? RUN_ORDER : ["revoke"];

  return (
    <div className={active || started ? "mb-4 space-y-3" : undefined}>
      {active && (
        <div
          role="region"
          aria-label="Bulk actions"
          className="flex flex-wrap items-center gap-2 rounded-lg bg-indigo-50 px-3 py-2 text-sm ring-1 ring-indigo-200"
        >
          <span className="font-medium text-indigo-950" data-testid="bulk-selected" aria-live="polite">
            {selection.allMatching
              ? filtered
                ? `All ${noun.many} matching this filter`
                : `All ${noun.many}`
              : `${formatNumber(count)} selected`}
          </span>
          <span aria-hidden="true" className="text-indigo-300">
            ·
          </span>
          {actions.map((a) => (
            <Button key={a} size="sm" variant={a === "revoke" ? "danger" : "secondary"} onClick={() => setAction(a)}>
              {target === "run" ? LABEL[a] : `${LABEL[a]} ${counted(count, target)}`}
            </Button>
          ))}
          <span className="ml-auto flex flex-wrap gap-2">
            {!selection.allMatching && filter && (
              <Button size="sm" variant="ghost" onClick={selection.selectAllMatching}>
                {filtered ? "Select all matching this filter" : `Select all ${noun.many}`}
              </Button>
            )}
            <Button size="sm" variant="ghost" onClick={selection.clear}>
              Clear selection
            </Button>
          </span>
        </div>
      )}
      {action && (
        <BulkDialog
          action={action}
          selection={body}
          onClose={() => setAction(null)}
          onStarted={(b) => {
            setAction(null);
            setStarted(b.bulk_action_id);
            selection.clear();
          }}
        />
      )}
      {started && <BulkProgress bulkActionId={started} onDismiss={() => setStarted(null)} />}
    </div>
  );
}

function DryRun({ preview, action }: { preview: BulkPreviewAnswer; action: BulkActionName }) {
  const reasons = preview.not_allowed;
  const noun = NOUN[preview.target_type];
  return (
    <div className="space-y-4 text-sm" data-testid="bulk-dry-run">
      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-md bg-zinc-50 px-3 py-2 ring-1 ring-zinc-200">
          <dt className="text-xs font-medium text-zinc-600">Matched</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="bulk-matched">
            {formatNumber(preview.matched)}
          </dd>
        </div>
        <div className="rounded-md bg-emerald-50 px-3 py-2 ring-1 ring-emerald-200">
          <dt className="text-xs font-medium text-emerald-900">Will be {VERB[action]}</dt>
          <dd className="text-lg font-semibold text-emerald-900 tabular-nums" data-testid="bulk-allowed">
            {formatNumber(preview.allowed)}
          </dd>
        </div>
      </dl>
      {reasons.length > 0 && (
        <div>
          <p className="font-medium text-zinc-800">Left as they are</p>
          <ul className="mt-1 space-y-0.5 text-zinc-700" aria-label={`${noun.title} left as they are`}>
            {reasons.map((r) => (
              <li key={`${r.reason}-${r.status}`}>
                {formatNumber(r.count)}{" "}
                {r.reason === "not_found"
                  ? "not found in this organization"
                  : `${statusLabel(r.status ?? "")}: ${LABEL[action].toLowerCase()} is not allowed from this state`}
              </li>
            ))}
          </ul>
        </div>
      )}
      {preview.sample.length > 0 && (
        <div>
          <p className="font-medium text-zinc-800">
            {preview.allowed > preview.sample.length ? `The first ${preview.sample.length}` : `The ${noun.many}`}
          </p>
          <ul className="mt-1 divide-y divide-zinc-100" aria-label={`Sample of the ${noun.many}`}>
            {preview.sample.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center gap-2 py-1">
                <StatusBadge status={s.status} />
                <Link
                  href={noun.href(s.id)}
                  className="font-medium [overflow-wrap:anywhere] text-indigo-700 hover:underline"
                  target="_blank"
                  aria-label={`${s.name}, ${noun.one} ${s.id} (opens in a new tab)`}
                >
                  {s.name}
                </Link>
                <Mono className="text-xs text-zinc-600">{s.id}</Mono>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function BulkDialog({
  action,
  selection,
  onClose,
  onStarted,
}: {
  action: BulkActionName;
  selection: BulkSelectionBody;
  onClose: () => void;
  onStarted: (b: BulkAction) => void;
}) {
  const preview = useMutation({
    mutationFn: () =>
      request("POST /api/v1/organizations/[org_id]/bulk-actions/preview", { body: { action, selection } }),
  });
  const start = useMutation({
    mutationFn: (expected: number) =>
      request("POST /api/v1/organizations/[org_id]/bulk-actions", {
        body: { action, selection, expected_count: expected },
      }),
    onSuccess: onStarted,
  });
  const run = preview.mutate;
  useEffect(() => run(), [run]);
  const changed = start.error instanceof ConsoleApiError && start.error.code === "selection_changed";
  const p = preview.data;
  const target = targetOf(action);
  return (
    <Dialog
      open
      onClose={onClose}
      title={bulkActionTitle(action)}
      description="A dry run: nothing has changed yet. Confirm to start it in the background."
      footer={
        <DialogActions
          onCancel={onClose}
          cancelLabel="Close"
          label={p ? `${LABEL[action]} ${counted(p.allowed, target)}` : LABEL[action]}
          pendingLabel="Starting…"
          pending={start.isPending}
          disabled={!p || p.allowed === 0 || preview.isPending}
          variant={action === "cancel" || action === "revoke" ? "danger" : "primary"}
          onClick={() => p && start.mutate(p.allowed)}
        />
      }
    >
      {preview.isPending && <SkeletonRows rows={3} label={`Counting the ${NOUN[target].many}`} />}
      {preview.error && <ErrorState error={preview.error} title="The dry run failed" />}
      {p && <DryRun preview={p} action={action} />}
      {p && p.allowed === 0 && (
        <p className="mt-3 text-sm text-zinc-700">
          None of these {NOUN[target].many} can be {VERB[action]} now.
        </p>
      )}
      {changed && (
        <div
          role="alert"
          className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200"
        >
          {NOUN[target].title} changed state since this dry run.{" "}
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              start.reset();
              preview.mutate();
            }}
          >
            Count again
          </Button>
        </div>
      )}
      {start.error && !changed && <ErrorState error={start.error} title="The bulk action was not started" />}
    </Dialog>
  );
}

export const isRunning = (b: BulkAction | undefined) => !b || b.status === "pending" || b.status === "running";

/** A bulk action's progress and outcome; polled every second while it runs. */
export function BulkOutcome({ b }: { b: BulkAction }) {
  const percent = b.total ? Math.round((100 * b.processed) / b.total) : 100;
  const action = b.action;
  return (
    <div className="space-y-2 text-sm">
      <ProgressBar percent={percent} label={`Progress of bulk action ${b.bulk_action_id}`} />
      <p data-testid="bulk-counts" className="tabular-nums">
        {formatNumber(b.counts.done)} {VERB[action] ?? "done"} · {formatNumber(b.counts.skipped)} skipped ·{" "}
        {formatNumber(b.counts.failed)} failed · {formatNumber(b.processed)} of {formatNumber(b.total)}
      </p>
      {b.skipped_reasons.length > 0 && (
        <ul className="text-xs text-zinc-700" aria-label={`Why ${NOUN[b.target_type].many} were skipped`}>
          {b.skipped_reasons.map((r) => (
            <li key={`${r.reason}-${r.status}`}>
              {formatNumber(r.count)}{" "}
              {r.reason === "not_found"
                ? "not found"
                : r.reason === "error"
                  ? "failed with an error"
                  : `skipped: ${statusLabel(r.status ?? "")}`}
            </li>
          ))}
        </ul>
      )}
      {b.error && <p className="text-red-800">{b.error}</p>}
    </div>
  );
}

function BulkProgress({ bulkActionId, onDismiss }: { bulkActionId: string; onDismiss: () => void }) {
  const qc = useQueryClient();
  const bulk = useApi(
    "GET /api/v1/organizations/[org_id]/bulk-actions/[bulk_action_id]",
    { params: { bulk_action_id: bulkActionId } },
    { enabled: Boolean(bulkActionId), refetchInterval: (q) => (isRunning(q.state.data) ? 1_000 : false) },
  );
  const b = bulk.data;
  const done = b && !isRunning(b);
  const target = b?.target_type;
  useEffect(() => {
    if (done) {
      void qc.invalidateQueries({
        queryKey:
          target === "access_key"
            ? apiKey("GET /api/v1/organizations/[org_id]/access-keys")
            : apiKey("GET /api/v1/organizations/[org_id]/runs"),
      });
    }
  }, [done, qc, target]);
  return (
    <section
      aria-label="Bulk action progress"
      data-testid="bulk-progress"
      data-status={b?.status ?? "pending"}
      className="rounded-lg bg-white px-4 py-3 ring-1 ring-zinc-200"
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-zinc-900" aria-live="polite">
          {b ? `${bulkActionTitle(b.action)}: ${statusLabel(b.status)}` : "Starting…"}
        </h2>
        <span className="flex items-center gap-2">
          <Link href={`/runs/bulk/${bulkActionId}`} className="text-sm font-medium text-indigo-700 hover:underline">
            Open the bulk action
          </Link>
          {done && (
            <Button size="sm" variant="ghost" onClick={onDismiss}>
              Dismiss
            </Button>
          )}
        </span>
      </div>
      {bulk.error && <ErrorState error={bulk.error} title="The progress could not be loaded" />}
      {b && <BulkOutcome b={b} />}
    </section>
  );
}
