"use client";
// The filter bar of the list pages (runs, webhook deliveries): a status and an agent, kept in the URL
// by the page; an agent id from the URL that is not in the list still shows (loading or short id).
import { shortId } from "@/components/console/format";
import { statusLabel } from "@/components/ui/badge";
import { Field, Select } from "@/components/ui/field";
import { FilterBar } from "./list-page";

export interface StatusAgentFiltersProps {
  /** The form's accessible name, e.g. "Filter runs". */
  label: string;
  statuses: readonly string[];
  status: string;
  agentId: string;
  agents: readonly { agent_id: string; name: string }[];
  agentsPending: boolean;
  onChange: (changes: { status?: string; agent_id?: string }) => void;
}

export function StatusAgentFilters({
  label,
  statuses,
  status,
  agentId,
  agents,
  agentsPending,
  onChange,
}: StatusAgentFiltersProps) {
  return (
    <FilterBar
      label={label}
      filtered={Boolean(status || agentId)}
      onClear={() => onChange({ status: "", agent_id: "" })}
    >
      <Field label="Status" className="w-full sm:w-48">
        {({ id }) => (
          <Select id={id} value={status} onChange={(e) => onChange({ status: e.target.value })}>
            <option value="">All statuses</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Agent" className="w-full sm:w-64">
        {({ id }) => (
          <Select id={id} value={agentId} onChange={(e) => onChange({ agent_id: e.target.value })}>
            <option value="">All agents</option>
            {agents.map((a) => (
              <option key={a.agent_id} value={a.agent_id}>
                {a.name}
              </option>
            ))}
            {agentId && !agents.some((a) => a.agent_id === agentId) && (
              <option value={agentId}>{agentsPending ? "Loading…" : shortId(agentId)}</option>
            )}
          </Select>
        )}
      </Field>
    </FilterBar>
  );
}
