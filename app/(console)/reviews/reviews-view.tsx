"use client";
// The shared review inbox (docs/console.md, Reviews): every item of the organization waiting for a
// person, oldest first, live; open one to decide it (which claims it), or select several and decide
// them at once with one reason.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { formatDate, relative, timeLeft } from "@/components/console/format";
import { FilterBar } from "@/components/console/filter-bar";
import { ListPage } from "@/components/console/list-page";
import { LiveToggle, useLiveUpdates } from "@/components/console/live";
import { useMe } from "@/components/console/me";
import {
  reviewRequests,
  reviewsKey,
  useAgents,
  useReviews,
  type BulkDecision,
  type ReviewItem,
} from "@/components/console/queries";
import { ReasonField, ReviewItemData, ReviewItemSummary } from "@/components/console/review-item";
import { useUrlParams } from "@/components/console/url-params";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { CheckboxField, Field, Input, Select } from "@/components/ui/field";
import { EmptyState } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { itemLabel, ReviewDialog } from "./review-dialog";

const LIMIT = 20;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A date filter (yyyy-mm-dd, UTC) as the instant the API takes; `to` includes its whole day. */
function dayBound(day: string, end: boolean): string {
  if (!DAY.test(day)) return "";
  const d = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(d.getTime())) return "";
  if (end) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}

function ClaimNote({ item, me }: { item: ReviewItem; me: string }) {
  if (!item.claimed_by || !item.claimed_until) return <span className="text-zinc-600">Nobody is reviewing it</span>;
  const left = timeLeft(item.claimed_until);
  // Not a Badge: a long name or email must wrap on a phone.
  const mine = item.claimed_by === me;
  return (
    <span
      className={
        "inline-block max-w-full rounded-md px-2 py-0.5 text-xs font-medium break-words ring-1 ring-inset " +
        (mine ? "bg-indigo-50 text-indigo-800 ring-indigo-200" : "bg-amber-50 text-amber-900 ring-amber-200")
      }
    >
      {mine ? `You are reviewing this (${left})` : `Being reviewed by ${item.claimed_by} (${left})`}
    </span>
  );
}

function BulkDialog({
  resolution,
  ids,
  onClose,
  onDone,
}: {
  resolution: "approved" | "rejected" | null;
  ids: string[];
  onClose: () => void;
  onDone: (result: BulkDecision) => void;
}) {
  const qc = useQueryClient();
  const [reason, setReason] = useState("");
  const [takeOver, setTakeOver] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const bulk = useMutation({
    mutationFn: () =>
      reviewRequests.bulk({
        exception_ids: ids,
        resolution: resolution!,
        reason: reason.trim() || undefined,
        take_over: takeOver,
      }),
    onSuccess: (result) => {
      setReason("");
      setTakeOver(false);
      onDone(result);
    },
    onError: (e) => setError(e instanceof ConsoleApiError ? e.message : "The items could not be decided."),
    onSettled: () => qc.invalidateQueries({ queryKey: reviewsKey() }),
  });
  const rejecting = resolution === "rejected";
  const n = ids.length;
  const noun = `${n} item${n === 1 ? "" : "s"}`;
  return (
    <Dialog
      open={resolution !== null}
      onClose={onClose}
      title={rejecting ? `Reject ${noun}` : `Approve ${noun}`}
      description={
        rejecting
          ? "Each selected item ends failed, with this reason. This cannot be undone."
          : "Each selected item continues through the remaining steps of its run."
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant={rejecting ? "danger" : "primary"}
            disabled={bulk.isPending}
            onClick={() => {
              if (rejecting && !reason.trim()) {
                setError("Say why these items are rejected: the reason is kept with each decision.");
                return;
              }
              setError(null);
              bulk.mutate();
            }}
          >
            {bulk.isPending ? "Deciding…" : rejecting ? `Yes, reject ${noun}` : `Approve ${noun}`}
          </Button>
        </>
      }
    >
      <ReasonField
        label={rejecting ? "Reason for rejecting" : "Reason (optional)"}
        error={error}
        hint="One reason for every selected item (up to 1,000 characters)."
        rows={3}
        value={reason}
        onValue={(r) => {
          setReason(r);
          setError(null);
        }}
      />
      <CheckboxField
        label="Take over items another member is reviewing (otherwise they are skipped)"
        className="mt-3"
        checked={takeOver}
        onChecked={setTakeOver}
      />
    </Dialog>
  );
}

function BulkOutcome({ result, onClose }: { result: BulkDecision; onClose: () => void }) {
  const notDone = result.results.filter((r) => r.outcome !== "decided");
  return (
    <section
      aria-label="Outcome of the bulk decision"
      className="mb-4 rounded-lg bg-white p-4 text-sm ring-1 ring-zinc-200"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="font-medium text-zinc-900">
          {result.decided} decided, {result.skipped} skipped, {result.failed} failed
        </p>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Dismiss
        </Button>
      </div>
      {notDone.length > 0 && (
        <ul className="mt-2 space-y-1 text-zinc-800">
          {notDone.map((r) => (
            <li key={r.exception_id} className="break-words">
              <span className="font-mono text-xs">{r.exception_id}</span>: {r.outcome}, {r.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ReviewsView() {
  const me = useMe();
  const meLabel = me.name || me.email;
  const url = useUrlParams({ agent_id: "", from: "", to: "", claimed: "" }, { limit: LIMIT });
  const { agent_id: agentId, from, to } = url.filters;
  const claimed = ["claimed", "unclaimed"].includes(url.filters.claimed) ? url.filters.claimed : "";
  useLiveUpdates(["reviews"]);
  const agents = useAgents({ staleTime: 60_000 });
  const reviews = useReviews({
    agentId,
    from: dayBound(from, false),
    to: dayBound(to, true),
    claimed,
    limit: url.limit,
    cursor: url.cursor,
  });
  const toast = useToast();
  const [open, setOpen] = useState<ReviewItem | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulk, setBulk] = useState<"approved" | "rejected" | null>(null);
  const [outcome, setOutcome] = useState<BulkDecision | null>(null);
  const rows = reviews.data?.items ?? [];
  // Only what is on screen can be selected: items decided meanwhile drop out.
  const shown = new Set(rows.map((r) => r.exception_id));
  const chosen = [...selected].filter((id) => shown.has(id));
  const workflowAgents = (agents.data?.agents ?? []).filter((a) => a.kind === "workflow");
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allChosen = rows.length > 0 && rows.every((r) => selected.has(r.exception_id));

  return (
    <>
      <ListPage
        title="Reviews"
        description="Every item waiting for a person across this organization's runs, oldest first. Opening one claims it for 15 minutes so that nobody decides it twice."
        actions={<LiveToggle />}
        filters={
          <FilterBar
            label="Filter reviews"
            grid
            filtered={url.filtered}
            onClear={() => url.update({ agent_id: "", from: "", to: "", claimed: "" })}
          >
            <Field label="Agent">
              {({ id }) => (
                <Select id={id} value={agentId} onChange={(e) => url.update({ agent_id: e.target.value })}>
                  <option value="">All agents</option>
                  {workflowAgents.map((a) => (
                    <option key={a.agent_id} value={a.agent_id}>
                      {a.name}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Waiting since (from)">
              {({ id }) => (
                <Input id={id} type="date" value={from} onChange={(e) => url.update({ from: e.target.value })} />
              )}
            </Field>
            <Field label="Waiting since (to)">
              {({ id }) => (
                <Input id={id} type="date" value={to} onChange={(e) => url.update({ to: e.target.value })} />
              )}
            </Field>
            <Field label="Claimed">
              {({ id }) => (
                <Select id={id} value={claimed} onChange={(e) => url.update({ claimed: e.target.value })}>
                  <option value="">Claimed or not</option>
                  <option value="unclaimed">Nobody reviewing</option>
                  <option value="claimed">Being reviewed</option>
                </Select>
              )}
            </Field>
          </FilterBar>
        }
        note={
          <>
            {outcome && <BulkOutcome result={outcome} onClose={() => setOutcome(null)} />}
            {chosen.length > 0 && (
              <div
                role="region"
                aria-label="Selected items"
                className="mb-4 flex flex-wrap items-center gap-2 rounded-lg bg-indigo-50 p-3 text-sm ring-1 ring-indigo-200"
              >
                <span className="font-medium text-indigo-950">{chosen.length} selected</span>
                <Button size="sm" onClick={() => setBulk("approved")}>
                  Approve selected
                </Button>
                <Button size="sm" variant="secondary" className="text-red-700" onClick={() => setBulk("rejected")}>
                  Reject selected…
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
                  Clear selection
                </Button>
              </div>
            )}
          </>
        }
        query={reviews}
        rows={(d) => d.items}
        noun="items"
        order="position"
        paging={url.paging}
        filtered={url.filtered}
        onClear={() => url.update({ agent_id: "", from: "", to: "", claimed: "" })}
        none={
          <EmptyState title="Nothing waits for review">
            Items stopped by a review step, or by an unexpected step error, of any run show up here.
          </EmptyState>
        }
      >
        {(items) => (
          <div>
            <CheckboxField
              label="Select all on this page"
              className="mb-2"
              checked={allChosen}
              onChecked={(all) => setSelected(all ? new Set(items.map((i) => i.exception_id)) : new Set())}
            />
            <ul className="space-y-3" aria-label="Items waiting for review">
              {items.map((r) => {
                const name = itemLabel(r);
                return (
                  <li
                    key={r.exception_id}
                    aria-label={`Review item: ${name}`}
                    className="rounded-lg bg-white p-3 ring-1 ring-zinc-200"
                  >
                    <div className="flex flex-wrap items-start gap-3">
                      <input
                        type="checkbox"
                        className="mt-1 h-4 w-4"
                        aria-label={`Select ${name}`}
                        checked={selected.has(r.exception_id)}
                        onChange={() => toggle(r.exception_id)}
                      />
                      <div className="min-w-0 flex-1">
                        <ReviewItemSummary name={name} item={r} className="break-words">
                          {" · "}
                          <Link href={`/runs/${r.run_id}`} className="text-indigo-700 underline">
                            open run
                          </Link>{" "}
                          · waiting{" "}
                          <time dateTime={r.waiting_since} title={formatDate(r.waiting_since)}>
                            {relative(r.waiting_since)}
                          </time>
                        </ReviewItemSummary>
                        <p className="mt-1 text-sm">
                          <ClaimNote item={r} me={meLabel} />
                        </p>
                        <ReviewItemData data={r.data} className="mt-2 max-h-24 bg-zinc-50" />
                      </div>
                      <Button size="sm" aria-label={`Review ${name}`} onClick={() => setOpen(r)}>
                        Review
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
          </div>
        )}
      </ListPage>
      <ReviewDialog item={open} onClose={() => setOpen(null)} />
      <BulkDialog
        resolution={bulk}
        ids={chosen}
        onClose={() => setBulk(null)}
        onDone={(result) => {
          setBulk(null);
          setSelected(new Set());
          setOutcome(result);
          toast({
            tone: "success",
            message: `${result.decided} decided, ${result.skipped} skipped, ${result.failed} failed`,
          });
        }}
      />
    </>
  );
}
