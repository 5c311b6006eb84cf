"use client";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { queryKeys, requests, useAgentPage, type Agent } from "@/components/console/queries";
import { formatDate, relative } from "@/components/console/format";
import { useIsAdmin } from "@/components/console/me";
import { Badge } from "@/components/ui/badge";
import { buttonClass, RowAction } from "@/components/ui/button";
import { Mono, PageHeader, Pager } from "@/components/ui/misc";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";

const LIMIT = 25;

export function KindBadge({ kind }: { kind: Agent["kind"] }) {
  return <Badge tone={kind === "workflow" ? "amber" : "indigo"}>{kind}</Badge>;
}

export function ArchivedBadge({ agent }: { agent: Pick<Agent, "archived_at"> }) {
  if (!agent.archived_at) return null;
  return (
    <span title={`Archived ${formatDate(agent.archived_at)}`}>
      <Badge>Archived</Badge>
    </span>
  );
}

function ArchiveDialog({ target, onClose }: { target: Agent | null; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  return (
    <ConfirmWrite
      target={target}
      onClose={onClose}
      title={`Archive ${target?.name ?? "agent"}?`}
      description="New triggers and uploads for this agent are refused from now on. Its sessions, messages, runs and files stay readable, and existing runs can still be controlled. This cannot be undone."
      confirmLabel="Archive agent"
      pendingLabel="Archiving…"
      errorTitle="The agent was not archived"
      write={(a) => requests.archiveAgent(a.agent_id)}
      onDone={(a) => {
        toast({ tone: "success", message: `Archived ${a.name}`, detail: "New triggers and uploads are refused." });
        void qc.invalidateQueries({ queryKey: queryKeys.agents() });
        void qc.invalidateQueries({ queryKey: queryKeys.agent(a.agent_id) });
      }}
    >
      {target && (
        <p className="text-sm">
          <Mono>{target.agent_id}</Mono> · {target.kind}
        </p>
      )}
    </ConfirmWrite>
  );
}

export function AgentsView() {
  const admin = useIsAdmin();
  const [offset, setOffset] = useState(0);
  const [archiving, setArchiving] = useState<Agent | null>(null);
  const agents = useAgentPage({ limit: LIMIT, offset });
  const newAgent = (label: string) => (
    <Link href="/agents/new" className={buttonClass()}>
      {label}
    </Link>
  );
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
      {agents.isPending ? (
        <SkeletonRows label="Loading agents" />
      ) : agents.error ? (
        <ErrorState error={agents.error} title="Agents could not be loaded" />
      ) : agents.data.agents.length === 0 && offset === 0 ? (
        <EmptyState title="No agents yet" action={admin && newAgent("Create your first agent")}>
          {admin
            ? "Create an agent, try it in the test console, then trigger it from your backend with an Access Key."
            : "An admin of this organization creates agents; they show up here."}
        </EmptyState>
      ) : (
        <>
          <Table label="Agents">
            <THead>
              <Tr>
                <Th>Name</Th>
                <Th>Kind</Th>
                <Th className="hidden sm:table-cell">Runtime</Th>
                <Th className="hidden md:table-cell">Agent id</Th>
                <Th className="hidden sm:table-cell">Updated</Th>
                {admin && (
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                )}
              </Tr>
            </THead>
            <TBody>
              {agents.data.agents.map((a) => (
                <Tr key={a.agent_id}>
                  <Td className="font-medium [overflow-wrap:anywhere]">
                    <Link href={`/agents/${a.agent_id}`} className="text-indigo-700 hover:underline">
                      {a.name}
                    </Link>
                  </Td>
                  <Td>
                    <span className="flex flex-wrap gap-1">
                      <KindBadge kind={a.kind} />
                      <ArchivedBadge agent={a} />
                    </span>
                  </Td>
                  <Td className="hidden sm:table-cell">
                    <Mono>{a.runtime.type}</Mono>
                  </Td>
                  <Td className="hidden md:table-cell">
                    <Mono>{a.agent_id}</Mono>
                  </Td>
                  <Td className="hidden whitespace-nowrap sm:table-cell">
                    <time dateTime={a.updated_at} title={formatDate(a.updated_at)}>
                      {relative(a.updated_at)}
                    </time>
                  </Td>
                  {admin && (
                    <Td className="text-right">
                      {!a.archived_at && (
                        <RowAction onClick={() => setArchiving(a)} aria-label={`Archive ${a.name}`}>
                          Archive
                        </RowAction>
                      )}
                    </Td>
                  )}
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pager
            offset={offset}
            limit={LIMIT}
            hasMore={agents.data.has_more}
            count={agents.data.agents.length}
            onChange={setOffset}
          />
        </>
      )}
      {admin && <ArchiveDialog target={archiving} onClose={() => setArchiving(null)} />}
    </>
  );
}
