"use client";
// The shared review inbox (docs/console.md, Reviews): every item of the organization waiting for a
// person, oldest first, live; open one to decide it (which claims it), or select several and decide
// them at once with one reason.
import { useState } from "react";
import { ListPage } from "@/components/console/list-page";
import { LiveToggle, useLiveUpdates } from "@/components/console/live";
import { useMe } from "@/components/console/me";
import { useApiPage } from "@/components/console/use-api";
import { useUrlParams } from "@/components/console/url-params";
import { EmptyState } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import type { BulkDecideResult as BulkDecision, ReviewItem } from "@/lib/reviews/schemas";
import { BulkDialog, SelectionBar, type BulkResolution } from "./bulk-decision";
import { BulkOutcome } from "./bulk-outcome";
import { ReviewDialog } from "./review-dialog";
import { ReviewList } from "./review-list";
import { dayBound, NO_FILTERS, ReviewFilters } from "./review-filters";
import { useAllAgents } from "@/components/console/all-agents";

const LIMIT = 20;

export function ReviewsView() {
  const me = useMe();
  const meLabel = me.name || me.email;
  const url = useUrlParams(NO_FILTERS, { limit: LIMIT });
  const { agent_id: agentId, from, to } = url.filters;
  const claimed = ["claimed", "unclaimed"].includes(url.filters.claimed) ? url.filters.claimed : "";
  useLiveUpdates(["reviews"]);
  const agents = useAllAgents({ staleTime: 60_000 });
  const reviews = useApiPage("GET /api/v1/organizations/[org_id]/reviews", {
    query: {
      agent_id: agentId,
      from: dayBound(from, false),
      to: dayBound(to, true),
      claimed,
      limit: url.limit,
      cursor: url.cursor,
    },
  });
  const toast = useToast();
  const [open, setOpen] = useState<ReviewItem | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulk, setBulk] = useState<BulkResolution | null>(null);
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
          <ReviewFilters
            values={{ agent_id: agentId, from, to, claimed }}
            filtered={url.filtered}
            agents={workflowAgents}
            update={url.update}
          />
        }
        note={
          <>
            {outcome && <BulkOutcome result={outcome} onClose={() => setOutcome(null)} />}
            {chosen.length > 0 && (
              <SelectionBar count={chosen.length} onBulk={setBulk} onClear={() => setSelected(new Set())} />
            )}
          </>
        }
        query={reviews}
        rows={(d) => d.items}
        noun="items"
        order="position"
        paging={url.paging}
        filtered={url.filtered}
        onClear={() => url.update(NO_FILTERS)}
        none={
          <EmptyState title="Nothing waits for review">
            Items stopped by a review step, or by an unexpected step error, of any run show up here.
          </EmptyState>
        }
      >
        {(items) => (
          <ReviewList
            items={items}
            me={meLabel}
            selected={selected}
            allChosen={allChosen}
            onSelectAll={(all) => setSelected(all ? new Set(items.map((i) => i.exception_id)) : new Set())}
            onToggle={toggle}
            onOpen={setOpen}
          />
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
