"use client";
// The inbox's filters, kept in the URL: agent, the days an item started waiting (UTC), claimed or not.
import { FilterBar } from "@/components/console/filter-bar";
import type { Answer } from "@/components/console/use-api";
import { Field, Input, Select } from "@/components/ui/field";

type Agent = Answer<"GET /api/v1/organizations/[org_id]/agents">["agents"][number];

export const NO_FILTERS = { agent_id: "", from: "", to: "", claimed: "" };
export type ReviewFilterValues = typeof NO_FILTERS;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A date filter (yyyy-mm-dd, UTC) as the instant the API takes; `to` includes its whole day. */
export function dayBound(day: string, end: boolean): string {
  if (!DAY.test(day)) return "";
  const d = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(d.getTime())) return "";
  if (end) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}

export function ReviewFilters({
  values,
  filtered,
  agents,
  update,
}: {
  values: ReviewFilterValues;
  filtered: boolean;
  agents: Agent[];
  update: (change: Partial<ReviewFilterValues>) => void;
}) {
  const { agent_id: agentId, from, to, claimed } = values;
  return (
    <FilterBar label="Filter reviews" grid filtered={filtered} onClear={() => update(NO_FILTERS)}>
      <Field label="Agent">
        {({ id }) => (
          <Select id={id} value={agentId} onChange={(e) => update({ agent_id: e.target.value })}>
            <option value="">All agents</option>
            {agents.map((a) => (
              <option key={a.agent_id} value={a.agent_id}>
                {a.name}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Waiting since (from)">
        {({ id }) => <Input id={id} type="date" value={from} onChange={(e) => update({ from: e.target.value })} />}
      </Field>
      <Field label="Waiting since (to)">
        {({ id }) => <Input id={id} type="date" value={to} onChange={(e) => update({ to: e.target.value })} />}
      </Field>
      <Field label="Claimed">
        {({ id }) => (
          <Select id={id} value={claimed} onChange={(e) => update({ claimed: e.target.value })}>
            <option value="">Claimed or not</option>
            <option value="unclaimed">Nobody reviewing</option>
            <option value="claimed">Being reviewed</option>
          </Select>
        )}
      </Field>
    </FilterBar>
  );
}
