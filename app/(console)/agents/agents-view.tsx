"use client";
import Link from "next/link";
import { useState } from "react";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { ListResult } from "@/components/console/list-result";
import { apiKey, request, useApiPage } from "@/components/console/use-api";
import { useUrlParams } from "@/components/console/url-params";
import { formatDate, relative } from "@/components/console/format";
import { useIsAdmin } from "@/components/console/me";
import { Badge } from "@/components/ui/badge";
import { actionsColumn, DataTable, type DataColumn } from "@/components/console/data-table";
import { buttonClass } from "@/components/ui/button";
import { Mono, PageHeader } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import type { AgentRecord } from "@/lib/agents/schemas";

const AGENTS = "GET /api/v1/organizations/[org_id]/agents";
const AGENT = "GET /api/v1/organizations/[org_id]/agents/[agent_id]";

export function KindBadge({ kind }: { kind: AgentRecord["kind"] }) {
  return <Badge tone={kind === "workflow" ? "amber" : "indigo"}>{kind}</Badge>;
}

export function ArchivedBadge({ agent }: { agent: Pick<AgentRecord, "archived_at"> }) {
  if (!agent.archived_at) return null;
  return (
    <span title={`Archived ${formatDate(agent.archived_at)}`}>
      <Badge>Archived</Badge>
    </span>
  );
}

function ArchiveDialog({ target, onClose }: { target: AgentRecord | null; onClose: () => void }) {
  return (
    <ConfirmWrite
      target={target}
      onClose={onClose}
      title={`Archive ${target?.name ?? "agent"}?`}
      description="New triggers and uploads for this agent are refused from now on. Its sessions, messages, runs and files stay readable, and existing runs can still be controlled. This cannot be undone."
      verb="archive"
      noun="agent"
      write={(a) =>
        request("DELETE /api/v1/organizations/[org_id]/agents/[agent_id]", { params: { agent_id: a.agent_id } })
      }
      done={(a) => ({ message: `Archived ${a.name}`, detail: "New triggers and uploads are refused." })}
      invalidates={(a) => [apiKey(AGENTS), apiKey(AGENT, { params: { agent_id: a.agent_id } })]}
    >
      {target && (
        <p className="text-sm">
          <Mono>{target.agent_id}</Mono> · {target.kind}
        </p>
      )}
    </ConfirmWrite>
  );
}

const LIMIT = 20;

/** The organization's agents, newest first, a page at a time (docs/console.md, "How the lists page"). */
export function AgentsView() {
  const admin = useIsAdmin();
  const [archiving, setArchiving] = useState<AgentRecord | null>(null);
  const url = useUrlParams({}, { limit: LIMIT });
  const agents = useApiPage(AGENTS, { query: { include_archived: true, limit: url.limit, cursor: url.cursor } });
  const newAgent = (label: string) => (
    <Link href="/agents/new" className={buttonClass()}>
      {label}
    </Link>
  );
  const columns: DataColumn<AgentRecord>[] = [
    {
      header: "Name",
      className: "font-medium [overflow-wrap:anywhere]",
      cell: (a) => (
        <Link href={`/agents/${a.agent_id}`} className="text-indigo-700 hover:underline">
          {a.name}
        </Link>
      ),
    },
    {
      header: "Kind",
      cell: (a) => (
        <span className="flex flex-wrap gap-1">
          <KindBadge kind={a.kind} />
          <ArchivedBadge agent={a} />
        </span>
      ),
    },
    { header: "Runtime", from: "sm", cell: (a) => <Mono>{a.runtime.type}</Mono> },
    { header: "Agent id", from: "md", cell: (a) => <Mono>{a.agent_id}</Mono> },
    {
      header: "Updated",
      from: "sm",
      className: "whitespace-nowrap",
      cell: (a) => (
        <time dateTime={a.updated_at} title={formatDate(a.updated_at)}>
          {relative(a.updated_at)}
        </time>
      ),
    },
    {
      ...actionsColumn<AgentRecord>(
        (a) => a.name,
        (a) => [!a.archived_at && { label: "Archive", onClick: () => setArchiving(a) }],
      ),
      hidden: !admin,
    },
  ];
  return (
    <>
      <PageHeader
        title="Agents"
        description="Conversational agents reply to messages; workflow agents run steps over items. Open one to edit it or try it in the test console."
        actions={admin && newAgent("New agent")}
      />
      {!admin && (
        <p className="mb-4 rounded-md bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
          You have read access and can use the test console. Admins create and edit agents.
        </p>
      )}
      <ListResult
        query={agents}
        rows={(d) => d.agents}
        noun="agents"
        paging={url.paging}
        empty={
          <EmptyState title="No agents yet" action={admin && newAgent("Create your first agent")}>
            {admin
              ? "Create an agent, try it in the test console, then trigger it from your backend with an Access Key."
              : "An admin of this organization creates agents; they show up here."}
          </EmptyState>
        }
      >
        {(rows) => <DataTable label="Agents" columns={columns} rows={rows} rowKey={(a) => a.agent_id} />}
      </ListResult>
      {admin && <ArchiveDialog target={archiving} onClose={() => setArchiving(null)} />}
    </>
  );
}
