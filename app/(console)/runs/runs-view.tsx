"use client";
import { ExportButton } from "@/components/console/export-button";
import Link from "next/link";
import { useAgents, useRuns } from "@/components/console/queries";
import { ListPage } from "@/components/console/list-page";
import { LiveToggle, useLiveUpdates } from "@/components/console/live";
import { StatusAgentFilters } from "@/components/console/status-agent-filters";
import { useUrlParams } from "@/components/console/url-params";
import { formatDate, formatNumber, relative } from "@/components/console/format";
import { statusLabel, StatusBadge } from "@/components/ui/badge";
import { Mono } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { Table, TBody, Td, Tr } from "@/components/ui/table";
import { BulkBar, SelectPage, SelectRow, useRunSelection } from "./bulk-actions";
import { formatDuration, ItemCounts, RUN_STATUSES, RunProgress, runTag } from "./shared";

const LIMIT = 20;

export function RunsView() {
  const url = useUrlParams({ status: "", agent_id: "" }, { limit: LIMIT });
  const status = (RUN_STATUSES as readonly string[]).includes(url.filters.status) ? url.filters.status : "";
  const agentId = url.filters.agent_id;
  const agents = useAgents({ staleTime: 60_000 });
  const runs = useRuns({ status, agentId, limit: url.limit, cursor: url.cursor });
  useLiveUpdates(["runs"]);
  const workflowAgents = (agents.data?.agents ?? []).filter((a) => a.kind === "workflow");
  const clear = () => url.update({ status: "", agent_id: "" });
  const selection = useRunSelection(`${status}|${agentId}`);

  return (
    <ListPage
      title="Runs"
      description="Every run of this organization's workflow agents, newest first. Open one to control it, review its items and download its output."
      actions={
        <>
          <LiveToggle />
          <ExportButton kind="runs" />
        </>
      }
      filters={
        <>
          <StatusAgentFilters
            label="Filter runs"
            statuses={RUN_STATUSES}
            status={status}
            agentId={agentId}
            agents={workflowAgents}
            agentsPending={agents.isPending}
            onChange={url.update}
          />
          <BulkBar selection={selection} filter={{ status, agent_id: agentId }} filtered={Boolean(status || agentId)} />
        </>
      }
      query={runs}
      rows={(d) => d.runs}
      noun="runs"
      paging={url.paging}
      filtered={Boolean(status || agentId)}
      onClear={clear}
      noMatch={`${status ? `No ${statusLabel(status)} runs` : "No runs"}${agentId ? " for this agent" : ""}.`}
      none={
        <EmptyState title="No runs yet">
          A run starts when a workflow agent is triggered: <Mono>POST /api/agents/webhook/&lt;agent_id&gt;</Mono> with
          an Access Key, or from the agent&apos;s test console.
        </EmptyState>
      }
    >
      {(rows) => (
        <Table
          label="Runs"
          columns={[
            { label: <SelectPage pageIds={rows.map((r) => r.run_id)} selection={selection} /> },
            ["Status", "sm"],
            "Agent",
            "Progress",
            ["Items", "md"],
            ["Trigger", "lg"],
            ["Started", "sm"],
            ["Duration", "sm"],
          ]}
        >
          <TBody>
            {rows.map((r) => (
              <Tr key={r.run_id}>
                <Td className="w-8">
                  <SelectRow runId={r.run_id} label={`run ${r.run_id} of ${r.agent_name}`} selection={selection} />
                </Td>
                <Td className="hidden sm:table-cell">
                  <StatusBadge status={r.status} />
                </Td>
                <Td className="min-w-[8rem]">
                  <Link
                    href={`/runs/${r.run_id}`}
                    className="font-medium break-words text-indigo-700 hover:underline"
                    aria-label={`${r.agent_name}, run ${r.run_id}`}
                  >
                    {r.agent_name}
                  </Link>
                  <div className="text-xs text-zinc-600">
                    <Mono>{runTag(r.run_id)}</Mono>
                  </div>
                  <StatusBadge status={r.status} className="mt-1 sm:hidden" />
                </Td>
                <Td>
                  <RunProgress run={r} label={`Progress of run ${r.run_id}`} />
                  <p className="mt-1 text-xs text-zinc-600 tabular-nums md:hidden">
                    {formatNumber(r.item_counts.completed + r.item_counts.failed)} of{" "}
                    {formatNumber(r.item_counts.total)} items
                    {r.item_counts.needs_review ? `, ${formatNumber(r.item_counts.needs_review)} to review` : ""}
                  </p>
                </Td>
                <Td className="hidden md:table-cell">
                  <ItemCounts counts={r.item_counts} />
                </Td>
                <Td className="hidden lg:table-cell">{r.trigger_type}</Td>
                <Td className="hidden whitespace-nowrap sm:table-cell">
                  {r.started_at ? (
                    <time dateTime={r.started_at} title={formatDate(r.started_at)}>
                      {relative(r.started_at)}
                    </time>
                  ) : (
                    <span className="text-zinc-600">not started</span>
                  )}
                </Td>
                <Td className="hidden whitespace-nowrap tabular-nums sm:table-cell">
                  {r.started_at ? formatDuration(r.duration_seconds) : "—"}
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </ListPage>
  );
}
