"use client";
// The sessions list: filters in the URL (docs/console.md, "List filters"), saved views, and a
// DataTable whose `selected`/`onSelectedChange` props and the header's `actions` slot are where bulk
// actions and an export button plug in.
import Link from "next/link";
import { useApiPage } from "@/components/console/use-api";
import { DataTable, type DataColumn } from "@/components/console/data-table";
import type { FilterField } from "@/components/console/filter-bar";
import { ExportButton } from "@/components/console/export-button";
import { useIsAdmin } from "@/components/console/me";
import { EvaluateListButton } from "../agents/[agent_id]/evaluate-list";
import { FilteredListPage } from "@/components/console/list-page";
import { LiveToggle, useLiveUpdates } from "@/components/console/live";
import { UserLink } from "@/components/console/search-box";
import { useUrlParams } from "@/components/console/url-params";
import { formatDate, formatNumber, relative, shortId } from "@/components/console/format";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Mono } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import type { OrgSessionListItem as SessionItem } from "@/lib/conversations/schemas";
import { useAllAgents } from "@/components/console/all-agents";

const DEFAULT_LIMIT = 20;
const NO_FILTERS = { agent_id: "", status: "", since: "", environment: "", from: "", to: "", user_id: "" };

export const SESSION_COLUMNS: DataColumn<SessionItem>[] = [
  {
    header: "Session",
    className: "whitespace-nowrap",
    cell: (s) => (
      <>
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
      </>
    ),
  },
  { header: "Agent", className: "max-w-[14rem] [overflow-wrap:anywhere]", cell: (s) => s.agent_name },
  { header: "Status", cell: (s) => <StatusBadge status={s.status} /> },
  { header: "Channel", from: "lg", cell: (s) => s.channel },
  {
    header: "User",
    from: "md",
    className: "max-w-[12rem] break-all",
    cell: (s) => (s.user_id ? <UserLink userId={s.user_id} /> : <span className="text-zinc-500">—</span>),
  },
  { header: "Messages", className: "text-right tabular-nums", cell: (s) => formatNumber(s.message_count) },
  { header: "Tokens", from: "sm", className: "text-right tabular-nums", cell: (s) => formatNumber(s.total_tokens) },
  {
    header: "Last activity",
    className: "whitespace-nowrap",
    cell: (s) => (
      <time dateTime={s.last_message_at} title={formatDate(s.last_message_at)}>
        {relative(s.last_message_at)}
      </time>
    ),
  },
];

export function SessionsView() {
  const admin = useIsAdmin();
  const url = useUrlParams(NO_FILTERS, { limit: DEFAULT_LIMIT });
  const { agent_id, status, since, environment, ...more } = url.filters;
  const agents = useAllAgents();
  const conversational = (agents.data?.agents ?? []).filter((a) => a.kind === "conversational");
  const sessions = useApiPage("GET /api/v1/organizations/[org_id]/sessions", {
    query: { ...more, environment, limit: url.limit, cursor: url.cursor, agent_id, status, since },
  });
  useLiveUpdates(["sessions"]);
  const fields: FilterField[] = [
    { kind: "agent", agents: conversational, pending: agents.isPending, any: "All conversational agents" },
    {
      kind: "status",
      options: [
        ["active", "Active"],
        ["closed", "Closed"],
      ],
    },
    { kind: "dates" },
    { kind: "user", hint: "The end user's id the trigger named." },
    { kind: "environment" },
  ];

  return (
    <FilteredListPage
      list="sessions"
      url={url}
      fields={fields}
      filterLabel="Filter sessions"
      title="Sessions"
      actions={
        <>
          <LiveToggle />
          <ExportButton kind="sessions" />
          {admin && <EvaluateListButton kind="sessions" filters={url.set} />}
        </>
      }
      description="Conversations with your conversational agents, most recently active first."
      query={sessions}
      rows={(d) => d.sessions}
      noun="sessions"
      noMatch="Try another agent, status, time or user, or clear the filters. Sessions appear when an agent is triggered through the API; drafts come from the test console on the Agents page."
      none={
        <EmptyState title="No sessions yet" link={{ href: "/agents", label: "Go to Agents" }}>
          A session appears when a conversational agent is triggered with{" "}
          <Mono>POST /api/agents/webhook/&#123;agent_id&#125;</Mono>. Draft sessions come from the test console on the
          Agents page.
        </EmptyState>
      }
    >
      {(rows) => (
        <DataTable
          label="Sessions"
          columns={SESSION_COLUMNS}
          rows={rows}
          rowKey={(s) => s.session_id}
          rowProps={(s) => ({ "data-session-id": s.session_id })}
        />
      )}
    </FilteredListPage>
  );
}
