"use client";
// The inbox's items: each with its run, how long it has waited, who is reviewing it, its data, a
// checkbox to select it and a button to open it; and "Select all on this page".
import Link from "next/link";
import { formatDate, relative, timeLeft } from "@/components/console/format";
import type { ReviewItem } from "@/lib/reviews/schemas";
import { ReviewItemData, ReviewItemSummary } from "@/components/console/review-item";
import { Button } from "@/components/ui/button";
import { CheckboxField } from "@/components/ui/field";
import { itemLabel } from "./review-dialog";

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

export function ReviewList({
  items,
  me,
  selected,
  allChosen,
  onSelectAll,
  onToggle,
  onOpen,
}: {
  items: ReviewItem[];
  me: string;
  selected: Set<string>;
  allChosen: boolean;
  onSelectAll: (all: boolean) => void;
  onToggle: (id: string) => void;
  onOpen: (item: ReviewItem) => void;
}) {
  return (
    <div>
      <CheckboxField label="Select all on this page" className="mb-2" checked={allChosen} onChecked={onSelectAll} />
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
                  onChange={() => onToggle(r.exception_id)}
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
                    <ClaimNote item={r} me={me} />
                  </p>
                  <ReviewItemData data={r.data} className="mt-2 max-h-24 bg-zinc-50" />
                </div>
                <Button size="sm" aria-label={`Review ${name}`} onClick={() => onOpen(r)}>
                  Review
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
