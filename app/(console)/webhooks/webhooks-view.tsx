"use client";
// The Webhooks page: the signing secret, then the organization's callback deliveries, newest first,
// filtered by status and agent (in the URL), paged with the server's cursor.
import { ExportButton } from "@/components/console/export-button";
import Link from "next/link";
import { useAgents, useDeliveries } from "@/components/console/queries";
import { formatDate, relative } from "@/components/console/format";
import { ShortId } from "@/components/console/short-id";
import { StatusAgentFilters } from "@/components/console/status-agent-filters";
import { ListBody } from "@/components/console/list-page";
import { useUrlParams } from "@/components/console/url-params";
import { StatusBadge, statusLabel } from "@/components/ui/badge";
import { Mono, PageHeader } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { Table, TBody, Td, Tr } from "@/components/ui/table";
import { SecretPanel } from "./secret-panel";
import { Code, DELIVERY_STATUSES, HttpStatus } from "./shared";

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

function Deliveries() {
  const url = useUrlParams({ status: "", agent_id: "" }, { limit: LIMIT });
  const status = (DELIVERY_STATUSES as readonly string[]).includes(url.filters.status) ? url.filters.status : "";
  const agentId = url.filters.agent_id;
  const agents = useAgents({ staleTime: 60_000 });
  const agentName = (id: string) => agents.data?.agents.find((a) => a.agent_id === id)?.name;
  const list = useDeliveries(
    { status, agentId, cursor: url.cursor, limit: url.limit },
    // Live while a listed delivery is still being tried.
    { refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === "pending") ? 3_000 : false) },
  );

  return (
    <section aria-labelledby="deliveries-heading" className="mt-8">
      <h2 id="deliveries-heading" className="mb-1 text-base font-semibold text-zinc-900">
        Deliveries
      </h2>
      <p className="mb-4 text-sm text-zinc-600">
        Every callback sent for this organization, newest first. Failed attempts are retried with growing delays; open
        one to see the request, each attempt and the receiver&apos;s answer.
      </p>
      <StatusAgentFilters
        label="Filter deliveries"
        statuses={DELIVERY_STATUSES}
        status={status}
        agentId={agentId}
        agents={agents.data?.agents ?? []}
        agentsPending={agents.isPending}
        onChange={url.update}
      />
      <ListBody
        query={list}
        rows={(d) => d.data}
        noun="deliveries"
        paging={url.paging}
        filtered={Boolean(status || agentId)}
        onClear={() => url.update({ status: "", agent_id: "" })}
        noMatch={`${status ? `No ${statusLabel(status)} deliveries` : "No deliveries"}${agentId ? " for this agent" : ""}.`}
        none={
          <EmptyState title="No deliveries yet">
            A delivery is made when a message completes or fails, or a run changes state, and a callback URL is set:
            send <Code>callback_url</Code> in the trigger&apos;s body, or give the agent a default{" "}
            <strong>Callback URL</strong> in its settings.
          </EmptyState>
        }
      >
        {(rows) => (
          <Table
            label="Deliveries"
            columns={[
              ["Status", "sm"],
              "Event",
              ["Agent", "md"],
              ["Subject", "lg"],
              { label: "Attempts", className: "text-right" },
              ["Last HTTP", "sm"],
              ["Created", "sm"],
              ["Next attempt", "lg"],
            ]}
          >
            <TBody>
              {rows.map((d) => (
                <Tr key={d.id}>
                  <Td className="hidden sm:table-cell">
                    <StatusBadge status={d.status} />
                  </Td>
                  <Td className="min-w-[9rem]">
                    <Link
                      href={`/webhooks/deliveries/${d.id}`}
                      className="font-medium break-words text-indigo-700 hover:underline"
                      aria-label={`${d.event}, delivery ${d.id}`}
                    >
                      {d.event}
                    </Link>
                    <div className="text-xs text-zinc-600">
                      <ShortId id={d.id} />
                    </div>
                    <div className="mt-1 flex flex-wrap items-center gap-2 sm:hidden">
                      <StatusBadge status={d.status} />
                      <span className="text-xs text-zinc-600">
                        <When iso={d.created_at} />
                      </span>
                    </div>
                  </Td>
                  <Td className="hidden break-words md:table-cell">
                    {agentName(d.agent_id) ?? <Mono>{d.agent_id}</Mono>}
                  </Td>
                  <Td className="hidden lg:table-cell">
                    <Mono>{d.subject_id}</Mono>
                  </Td>
                  <Td className="text-right tabular-nums">
                    {d.attempts}
                    <div className="sm:hidden">
                      <HttpStatus code={d.last_status_code} />
                    </div>
                  </Td>
                  <Td className="hidden sm:table-cell">
                    <HttpStatus code={d.last_status_code} />
                  </Td>
                  <Td className="hidden whitespace-nowrap sm:table-cell">
                    <When iso={d.created_at} />
                  </Td>
                  <Td className="hidden whitespace-nowrap lg:table-cell">
                    {d.status === "pending" && d.next_attempt_at ? (
                      <time dateTime={d.next_attempt_at} title={formatDate(d.next_attempt_at)}>
                        {dueIn(d.next_attempt_at)}
                      </time>
                    ) : d.delivered_at ? (
                      <span className="text-zinc-600">delivered {relative(d.delivered_at)}</span>
                    ) : (
                      "—"
                    )}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
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
        actions={<ExportButton kind="deliveries" />}
        description="Signed completion callbacks: when a message completes or fails, or a run changes state, the service POSTs the event to the callback URL of the trigger or the agent."
      />
      <SecretPanel />
      <Deliveries />
    </>
  );
}
