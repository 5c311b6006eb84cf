"use client";
// The Webhooks page: the signing secret, then the organization's callback deliveries, newest first,
// filtered by status, agent, time and errors (in the URL; docs/console.md, "List filters"), paged with the server's cursor.
import Link from "next/link";
import { useApiPage } from "@/components/console/use-api";
import type { DeliverySummary as Delivery } from "@/lib/callbacks/schemas";
import { DataTable, RowLink, type DataColumn } from "@/components/console/data-table";
import { ListFilters, type FilterField } from "@/components/console/filter-bar";
import { SavedViews } from "@/components/console/saved-views";
import { formatDate, relative } from "@/components/console/format";
import { ExportButton } from "@/components/console/export-button";
import { ShortId } from "@/components/console/short-id";
import { ListBody } from "@/components/console/list-page";
import { useUrlParams } from "@/components/console/url-params";
import { StatusBadge, statusLabel } from "@/components/ui/badge";
import { Mono, PageHeader } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { SecretPanel } from "./secret-panel";
import { Code, DELIVERY_STATUSES, HttpStatus } from "./shared";
import { useAllAgents } from "@/components/console/all-agents";

const LIMIT = 20;

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDate(iso)}>
      {relative(iso)}
    </time>
  );
}

/** When the next attempt is due, relative to now ("in 40 s", "due"). */
function dueIn(iso: string, now = Date.now()): string {
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  if (s <= 0) return "due now";
  if (s < 60) return `in ${s} s`;
  const m = Math.round(s / 60);
  return m < 60 ? `in ${m} min` : `in ${Math.round(m / 60)} h`;
}

const NO_FILTERS = { status: "", agent_id: "", from: "", to: "", has_error: "" };

/** A delivery's subject: a run links to its page, a message to itself in its session's thread. */
function Subject({ id, sessionId }: { id: string; sessionId: string | null }) {
  if (id.startsWith("run_")) {
    return (
      <Link href={`/runs/${id}`} className="text-indigo-700 hover:underline" aria-label={`Run ${id}`}>
        <ShortId id={id} />
      </Link>
    );
  }
  if (id.startsWith("sess_")) {
    return (
      <Link href={`/sessions/${id}`} className="text-indigo-700 hover:underline" aria-label={`Session ${id}`}>
        <ShortId id={id} />
      </Link>
    );
  }
  if (sessionId) {
    return (
      <Link
        href={`/sessions/${sessionId}#${id}`}
        className="text-indigo-700 hover:underline"
        aria-label={`Message ${id} in session ${sessionId}`}
      >
        <ShortId id={id} />
      </Link>
    );
  }
  return <Mono>{id}</Mono>;
}

/** The receiver's URL: its host in full, the rest cut with the whole URL as its title. */
function Receiver({ url }: { url: string }) {
  return (
    <span className="block max-w-[10rem] truncate font-mono text-xs" title={url}>
      {url}
    </span>
  );
}

function deliveryColumns(agentName: (id: string) => string | undefined): DataColumn<Delivery>[] {
  return [
    { header: "Status", from: "sm", cell: (d) => <StatusBadge status={d.status} /> },
    {
      header: "Event",
      className: "min-w-[10rem]",
      cell: (d) => (
        <>
          <RowLink href={`/webhooks/deliveries/${d.id}`} id={d.id} label={d.event} kind="delivery" />
          <div className="mt-1 flex flex-wrap items-center gap-2 sm:hidden">
            <StatusBadge status={d.status} />
            <span className="text-xs text-zinc-600">
              <When iso={d.created_at} />
            </span>
          </div>
        </>
      ),
    },
    {
      header: "Agent",
      from: "md",
      className: "[overflow-wrap:anywhere]",
      cell: (d) => (d.agent_id ? (agentName(d.agent_id) ?? <Mono>{d.agent_id}</Mono>) : "—"),
    },
    { header: "Subject", from: "lg", cell: (d) => <Subject id={d.subject_id} sessionId={d.session_id} /> },
    { header: "Receiver", from: "md", cell: (d) => <Receiver url={d.url} /> },
    // The last HTTP status under the attempts, at every width: one column fewer, so that the row
    // (with "Next attempt") fits 1280 px beside the navigation.
    {
      header: "Attempts",
      headerLabel: (
        <>
          Attempts <span className="block font-normal">last HTTP</span>
        </>
      ),
      className: "text-right tabular-nums",
      cell: (d) => (
        <>
          {d.attempts}
          <div>
            <HttpStatus code={d.last_status_code} />
          </div>
        </>
      ),
    },
    { header: "Created", from: "sm", cell: (d) => <When iso={d.created_at} /> },
    {
      header: "Next attempt",
      from: "lg",
      className: "min-w-[6rem]",
      cell: (d) =>
        d.status === "pending" && d.next_attempt_at ? (
          <time dateTime={d.next_attempt_at} title={formatDate(d.next_attempt_at)}>
            {dueIn(d.next_attempt_at)}
          </time>
        ) : d.delivered_at ? (
          <span className="text-zinc-600">delivered {relative(d.delivered_at)}</span>
        ) : (
          "—"
        ),
    },
  ];
}

function Deliveries() {
  const url = useUrlParams(NO_FILTERS, { limit: LIMIT });
  const { status, agent_id: agentId, ...more } = url.filters;
  const agents = useAllAgents({ staleTime: 60_000 });
  const agentName = (id: string) => agents.data?.agents.find((a) => a.agent_id === id)?.name;
  const list = useApiPage(
    "GET /api/v1/organizations/[org_id]/deliveries",
    { query: { ...more, limit: url.limit, status, agent_id: agentId, cursor: url.cursor } },
    // Live while a listed delivery is still being tried.
    { refetchInterval: (q) => (q.state.data?.deliveries.some((d) => d.status === "pending") ? 3_000 : false) },
  );
  const fields: FilterField[] = [
    { kind: "status", options: DELIVERY_STATUSES.map((s) => [s, statusLabel(s)] as const) },
    { kind: "agent", agents: agents.data?.agents ?? [], pending: agents.isPending },
    { kind: "dates" },
    { kind: "has_error", label: "Refused or failed" },
  ];
  const clear = () => url.update(NO_FILTERS);

  return (
    <section aria-labelledby="deliveries-heading" className="mt-8">
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
        <h2 id="deliveries-heading" className="text-base font-semibold text-zinc-900">
          Deliveries
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <SavedViews list="deliveries" current={url.set} onApply={url.replace} />
          <ExportButton kind="deliveries" />
        </div>
      </div>
      <p className="mb-4 text-sm text-zinc-600">
        Every callback sent for this organization, newest first. Failed attempts are retried with growing delays; open
        one to see the request, each attempt and the receiver&apos;s answer.
      </p>
      <ListFilters
        label="Filter deliveries"
        fields={fields}
        values={url.filters}
        onChange={url.update}
        filtered={url.filtered}
        onClear={clear}
      />
      <ListBody
        query={list}
        rows={(d) => d.deliveries}
        noun="deliveries"
        paging={url.paging}
        filtered={url.filtered}
        onClear={clear}
        noMatch={`${status ? `No ${statusLabel(status)} deliveries` : "No deliveries"}${agentId ? " for this agent" : ""} match.`}
        none={
          <EmptyState title="No deliveries yet">
            A delivery is made when a message completes or fails, or a run changes state, and a callback URL is set:
            send <Code>callback_url</Code> in the trigger&apos;s body, or give the agent a default{" "}
            <strong>Callback URL</strong> in its settings.
          </EmptyState>
        }
      >
        {(rows) => (
          <DataTable label="Deliveries" columns={deliveryColumns(agentName)} rows={rows} rowKey={(d) => d.id} />
        )}
      </ListBody>
    </section>
  );
}

export function WebhooksView() {
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Signed completion callbacks: when a message completes or fails, or a run changes state, the service POSTs the event to the callback URL of the trigger or the agent."
      />
      <SecretPanel />
      <Deliveries />
    </>
  );
}
