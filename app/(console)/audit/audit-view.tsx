"use client";
import Link from "next/link";
import { useApiPage } from "@/components/console/use-api";
import type { AuditEventRecord as AuditEvent } from "@/lib/orgs/schemas";
import { DataTable, type DataColumn } from "@/components/console/data-table";
import type { FilterField } from "@/components/console/filter-bar";
import { AUDIT_ACTIONS, AUDIT_GROUPS, auditActionLabel, type AuditGroup } from "@/lib/audit-actions";
import { ExportButton } from "@/components/console/export-button";
import { EmailText } from "@/components/console/email-text";
import { FilteredListPage } from "@/components/console/list-page";
import { useUrlParams } from "@/components/console/url-params";
import { formatDate, relative } from "@/components/console/format";
import { Badge } from "@/components/ui/badge";
import { Mono } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";

const DEFAULT_LIMIT = 50;

/** The filter's options: each group's `group.*` (where it has one), then its actions (lib/audit-actions.ts). */
const ACTION_GROUPS = (Object.keys(AUDIT_GROUPS) as AuditGroup[]).map((group) => {
  const { label, ...g } = AUDIT_GROUPS[group];
  const any: [string, string][] = "any" in g ? [[`${group}.*`, g.any]] : [];
  const actions = AUDIT_ACTIONS.filter((a) => a.group === group).map((a): [string, string] => [a.action, a.label]);
  return { label, actions: [...any, ...actions] };
});

const ACTOR_TYPES: Record<string, string> = { user: "user", access_key: "Access Key", system: "system" };

function compactJson(data: unknown): string {
  if (data == null) return "";
  if (typeof data === "object" && Object.keys(data as object).length === 0) return "";
  return JSON.stringify(data);
}

/** Where a target's page is (nothing for a target without one: a sign-in, a deleted file). */
function targetHref(e: AuditEvent): string | null {
  const { type, id } = e.target;
  const enc = encodeURIComponent(id);
  switch (type) {
    case "agent":
      return `/agents/${enc}`;
    case "run":
      return `/runs/${enc}`;
    case "run_item": {
      const run = (e.data as { run_id?: unknown } | null)?.run_id;
      return typeof run === "string" ? `/runs/${encodeURIComponent(run)}` : null;
    }
    case "session":
      return `/sessions/${enc}`;
    case "callback_delivery":
      return `/webhooks/deliveries/${enc}`;
    case "webhook_secret":
      return "/webhooks";
    case "access_key":
    case "key":
      return "/keys";
    case "user":
    case "invitation":
      return "/members";
    case "secret":
      return "/settings/secrets";
    case "organization":
      return e.action.startsWith("retention.") ? "/settings/retention" : null;
    default:
      return null;
  }
}

function Target({ event }: { event: AuditEvent }) {
  const href = targetHref(event);
  const type = event.target.type.replace(/_/g, " ");
  return (
    <>
      <div>{type}</div>
      {href ? (
        <Link href={href} className="text-indigo-700 hover:underline" aria-label={`Open ${type} ${event.target.id}`}>
          <Mono className="break-all">{event.target.id}</Mono>
        </Link>
      ) : (
        <Mono className="break-all text-zinc-600">{event.target.id}</Mono>
      )}
    </>
  );
}

const NO_FILTERS = { action: "", from: "", to: "" };

const AUDIT_COLUMNS: DataColumn<AuditEvent>[] = [
  {
    header: "When",
    className: "whitespace-nowrap",
    cell: (e) => (
      <time dateTime={e.at} title={formatDate(e.at)}>
        <span className="hidden sm:inline">{formatDate(e.at)}</span>
        <span className="block text-xs text-zinc-600 max-sm:text-sm max-sm:text-zinc-900">{relative(e.at)}</span>
      </time>
    ),
  },
  {
    header: "Who",
    // Narrow on a phone: the table keeps to the screen's width (docs/console.md, Long emails).
    className: "max-w-[14rem] min-w-[5.5rem] sm:min-w-[8rem]",
    cell: (e) => (
      <>
        <div className="[overflow-wrap:anywhere]">
          <EmailText text={e.actor.label ?? e.actor.id ?? e.actor.type} />
        </div>
        <div className="mt-0.5">
          <Badge>{ACTOR_TYPES[e.actor.type] ?? e.actor.type}</Badge>
        </div>
      </>
    ),
  },
  {
    header: "What",
    className: "sm:min-w-[9rem]",
    cell: (e) => {
      const details = compactJson(e.data);
      return (
        <>
          <div className="font-medium">{auditActionLabel(e.action)}</div>
          <Mono className="break-all text-zinc-600">{e.action}</Mono>
          {/* On a phone the details column is hidden: they show here, under the action. */}
          {details && <Mono className="mt-1 block break-all text-xs text-zinc-800 sm:hidden">{details}</Mono>}
        </>
      );
    },
  },
  { header: "Target", from: "md", className: "max-w-[14rem]", cell: (e) => <Target event={e} /> },
  {
    header: "Details",
    from: "sm",
    className: "max-w-[22rem] min-w-[10rem]",
    cell: (e) => {
      const details = compactJson(e.data);
      return details ? (
        <Mono className="break-all text-zinc-800">{details}</Mono>
      ) : (
        <span className="text-zinc-500">—</span>
      );
    },
  },
];

export function AuditView() {
  const url = useUrlParams(NO_FILTERS, { limit: DEFAULT_LIMIT });
  const { action, ...dates } = url.filters;
  const events = useApiPage("GET /api/v1/organizations/[org_id]/audit", {
    query: { ...dates, action, cursor: url.cursor, limit: url.limit },
  });
  const fields: FilterField[] = [
    {
      kind: "choice",
      name: "action",
      label: "Action",
      any: "All actions",
      groups: ACTION_GROUPS.map((g) => ({
        label: g.label,
        options: g.actions.map(([value, label]) => [value, `${label} (${value})`] as const),
      })),
    },
    { kind: "dates" },
  ];

  return (
    <FilteredListPage
      list="audit"
      url={url}
      fields={fields}
      filterLabel="Filter the audit log"
      title="Audit log"
      actions={<ExportButton kind="audit" />}
      description="Who did what in this organization, newest first: keys, agents, run controls, members and sign-ins."
      query={events}
      rows={(d) => d.events}
      noun="events"
      noMatch="Choose another action or time, or clear the filters."
      none={
        <EmptyState title="No events yet">
          Minting keys, changing agents, controlling runs, changing members and signing in are recorded here.
        </EmptyState>
      }
    >
      {(rows) => <DataTable label="Audit log" columns={AUDIT_COLUMNS} rows={rows} rowKey={(e) => e.event_id} />}
    </FilteredListPage>
  );
}
