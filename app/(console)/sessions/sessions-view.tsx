"use client";
import { ExportButton } from "@/components/console/export-button";
import Link from "next/link";
import { useAgents, useSessions } from "@/components/console/queries";
import { FilterBar, ListPage } from "@/components/console/list-page";
import { LiveToggle, useLiveUpdates } from "@/components/console/live";
import { useUrlParams } from "@/components/console/url-params";
import { formatDate, formatNumber, relative, shortId } from "@/components/console/format";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Field, Select, TextField } from "@/components/ui/field";
import { Mono } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { Table, TBody, Td, Tr } from "@/components/ui/table";

const DEFAULT_LIMIT = 20;
const ENVIRONMENTS = ["all", "production", "draft"] as const;

/** An ISO timestamp as the value of a datetime-local input (the browser's time zone), and back. */
function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromLocalInput(value: string): string {
  if (!value) return "";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString();
}

const NO_FILTERS = { agent_id: "", status: "", since: "", environment: "all" };

export function SessionsView() {
  const url = useUrlParams(NO_FILTERS, { limit: DEFAULT_LIMIT });
  const { update, filtered } = url;
  const params = {
    ...url.filters,
    environment: ENVIRONMENTS.find((e) => e === url.filters.environment) ?? "all",
    cursor: url.cursor,
    limit: url.limit,
  };

  const agents = useAgents();
  const conversational = (agents.data?.agents ?? []).filter((a) => a.kind === "conversational");

  const sessions = useSessions(params);
  useLiveUpdates(["sessions"]);

  return (
    <ListPage
      title="Sessions"
      description="Conversations with your conversational agents, most recently active first."
      actions={
        <>
          <LiveToggle />
          <ExportButton kind="sessions" />
        </>
      }
      filters={
        <FilterBar label="Filter sessions" grid filtered={filtered} onClear={() => update(NO_FILTERS)}>
          <Field label="Agent">
            {({ id }) => (
              <Select id={id} value={params.agent_id} onChange={(e) => update({ agent_id: e.target.value })}>
                <option value="">All conversational agents</option>
                {conversational.map((a) => (
                  <option key={a.agent_id} value={a.agent_id}>
                    {a.name}
                  </option>
                ))}
                {params.agent_id && !conversational.some((a) => a.agent_id === params.agent_id) && (
                  <option value={params.agent_id}>{shortId(params.agent_id)}</option>
                )}
              </Select>
            )}
          </Field>
          <Field label="Status">
            {({ id }) => (
              <Select id={id} value={params.status} onChange={(e) => update({ status: e.target.value })}>
                <option value="">Any status</option>
                <option value="active">Active</option>
                <option value="closed">Closed</option>
              </Select>
            )}
          </Field>
          <TextField
            label="Active since"
            hint="Your local time."
            type="datetime-local"
            value={params.since ? toLocalInput(params.since) : ""}
            onChange={(e) => update({ since: fromLocalInput(e.target.value) })}
          />
          <Field label="Environment">
            {({ id }) => (
              <Select id={id} value={params.environment} onChange={(e) => update({ environment: e.target.value })}>
                <option value="all">All</option>
                <option value="production">Production (API)</option>
                <option value="draft">Draft (test console)</option>
              </Select>
            )}
          </Field>
        </FilterBar>
      }
      query={sessions}
      rows={(d) => d.sessions}
      noun="sessions"
      paging={url.paging}
      filtered={filtered}
      onClear={() => update(NO_FILTERS)}
      noMatch="Try another agent, status or time, or clear the filters. Sessions appear when an agent is triggered through the API; drafts come from the test console on the Agents page."
      none={
        <EmptyState
          title="No sessions yet"
          action={
            <Link href="/agents" className="text-sm font-medium text-indigo-700 hover:underline">
              Go to Agents
            </Link>
          }
        >
          A session appears when a conversational agent is triggered with{" "}
          <Mono>POST /api/agents/webhook/&#123;agent_id&#125;</Mono>. Draft sessions come from the test console on the
          Agents page.
        </EmptyState>
      }
    >
      {(rows) => (
        <Table
          label="Sessions"
          columns={[
            "Session",
            "Agent",
            "Status",
            ["Channel", "lg"],
            ["User", "md"],
            { label: "Messages", className: "text-right" },
            { label: "Tokens", className: "hidden text-right sm:table-cell" },
            "Last activity",
          ]}
        >
          <TBody>
            {rows.map((s) => (
              <Tr key={s.session_id} data-session-id={s.session_id}>
                <Td className="whitespace-nowrap">
                  <Link
                    href={`/sessions/${s.session_id}`}
                    className="font-mono text-xs font-medium text-indigo-700 hover:underline"
                    title={s.session_id}
                  >
                    {shortId(s.session_id)}
                  </Link>
                  {s.environment === "draft" && (
                    <span className="ml-2">
                      <Badge tone="amber">draft</Badge>
                    </span>
                  )}
                </Td>
                <Td className="max-w-[14rem] break-words">{s.agent_name}</Td>
                <Td>
                  <StatusBadge status={s.status} />
                </Td>
                <Td className="hidden lg:table-cell">{s.channel}</Td>
                <Td className="hidden max-w-[12rem] break-words md:table-cell">
                  {s.user_id ? <Mono>{s.user_id}</Mono> : <span className="text-zinc-500">—</span>}
                </Td>
                <Td className="text-right tabular-nums">{formatNumber(s.message_count)}</Td>
                <Td className="hidden text-right tabular-nums sm:table-cell">{formatNumber(s.total_tokens)}</Td>
                <Td className="whitespace-nowrap">
                  <time dateTime={s.last_message_at} title={formatDate(s.last_message_at)}>
                    {relative(s.last_message_at)}
                  </time>
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </ListPage>
  );
}
