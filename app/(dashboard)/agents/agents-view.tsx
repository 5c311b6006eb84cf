"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api } from "@/components/console/api";
import { formatDate, relative } from "@/components/console/format";
import { useIsAdmin } from "@/components/console/me";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { Mono, PageHeader, Pager } from "@/components/ui/misc";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import type { Agent } from "./types";

const LIMIT = 25;

export function KindBadge({ kind }: { kind: Agent["kind"] }) {
  return <Badge tone={kind === "workflow" ? "amber" : "indigo"}>{kind}</Badge>;
}

export function AgentsView() {
  const admin = useIsAdmin();
  const [offset, setOffset] = useState(0);
  const agents = useQuery({
    queryKey: ["agents", { offset }],
    queryFn: () => api<{ agents: Agent[]; has_more: boolean }>(`/agents?limit=${LIMIT}&offset=${offset}`),
  });
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
                <Th>Updated</Th>
              </Tr>
            </THead>
            <TBody>
              {agents.data.agents.map((a) => (
                <Tr key={a.agent_id}>
                  <Td className="font-medium break-words">
                    <Link href={`/agents/${a.agent_id}`} className="text-indigo-700 hover:underline">
                      {a.name}
                    </Link>
                  </Td>
                  <Td>
                    <KindBadge kind={a.kind} />
                  </Td>
                  <Td className="hidden sm:table-cell">
                    <Mono>{a.runtime.type}</Mono>
                  </Td>
                  <Td className="hidden md:table-cell">
                    <Mono>{a.agent_id}</Mono>
                  </Td>
                  <Td className="whitespace-nowrap">
                    <time dateTime={a.updated_at} title={formatDate(a.updated_at)}>
                      {relative(a.updated_at)}
                    </time>
                  </Td>
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
    </>
  );
}
