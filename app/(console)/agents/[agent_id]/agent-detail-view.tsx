"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import { useAgent, type Agent } from "@/components/console/queries";
import { formatDate } from "@/components/console/format";
import { JsonEditor } from "@/components/console/json-editor";
import { useIsAdmin } from "@/components/console/me";
import { UsageCharts } from "@/components/console/usage-charts-lazy";
import { BackLink, Card, CopyButton, Details, Mono, PageHeader } from "@/components/ui/misc";
import { ErrorState, Skeleton } from "@/components/ui/states";
import { AgentForm } from "../agent-form";
import { ArchivedBadge, KindBadge } from "../agents-view";
import { RUNTIME_LABELS } from "../runtime-labels";
import { TestConsole } from "./test-console";

const linkClass = "text-sm font-medium text-indigo-700 underline-offset-2 hover:underline";

const show = (v: unknown): ReactNode =>
  v === undefined || v === null || v === "" ? (
    "—"
  ) : typeof v === "object" ? (
    <Mono>{JSON.stringify(v)}</Mono>
  ) : (
    String(v)
  );

/** What a support member sees instead of the form: the same values, read-only. */
function ReadOnlySettings({ agent }: { agent: Agent }) {
  const { type, ...rest } = agent.runtime;
  return (
    <Card title="Settings">
      <p className="mb-4 rounded-md bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
        You have read access. Admins edit agents.
      </p>
      <Details
        items={[
          ["Name", agent.name],
          ["Runtime type", RUNTIME_LABELS[type] ?? type],
          ...Object.entries(rest).map(([k, v]): [string, ReactNode] => [k, show(v)]),
          ["Callback URL", show(agent.callback_url)],
        ]}
      />
      {agent.workflow && (
        <div className="mt-4">
          <JsonEditor label="Workflow definition (JSON)" value={JSON.stringify(agent.workflow, null, 2)} readOnly />
        </div>
      )}
    </Card>
  );
}

export function AgentDetailView({ agentId }: { agentId: string }) {
  const admin = useIsAdmin();
  const q = useAgent(agentId);
  const back = <BackLink href="/agents">All agents</BackLink>;
  if (q.isPending) {
    return (
      <div role="status" aria-label="Loading the agent" className="space-y-4">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  if (q.error) {
    return (
      <>
        {back}
        <PageHeader title="Agent" />
        <ErrorState error={q.error} title="The agent could not be loaded" />
      </>
    );
  }
  const agent = q.data;
  const listHref =
    agent.kind === "workflow" ? `/runs?agent_id=${agent.agent_id}` : `/sessions?agent_id=${agent.agent_id}`;
  return (
    <>
      {back}
      <PageHeader
        title={agent.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <KindBadge kind={agent.kind} />
            <ArchivedBadge agent={agent} />
            <span>
              runtime <Mono>{agent.runtime.type}</Mono>
            </span>
          </span>
        }
        actions={
          <Link href={listHref} className={linkClass}>
            {agent.kind === "workflow" ? "Runs of this agent" : "Sessions of this agent"}
          </Link>
        }
      />
      <div className="space-y-6">
        <Card title="About">
          <Details
            items={[
              [
                "Agent id",
                <span key="id" className="flex flex-wrap items-center gap-2">
                  <Mono>{agent.agent_id}</Mono>
                  <CopyButton value={agent.agent_id} label="Copy id" />
                </span>,
              ],
              ["Created", formatDate(agent.created_at)],
              ["Updated", formatDate(agent.updated_at)],
              [
                "Trigger",
                <Mono key="trigger">
                  POST /api/agents/webhook/{agent.agent_id}
                  {agent.kind === "workflow" ? " (body: the inputs)" : ' (body: {"message": "…"})'}
                </Mono>,
              ],
            ]}
          />
        </Card>
        <UsageCharts agent_id={agent.agent_id} />
        {agent.archived_at ? (
          <p role="note" className="rounded-md bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
            This agent was archived {formatDate(agent.archived_at)}: it takes no new triggers or uploads, so the test
            console is off. Its sessions, runs and files stay readable.
          </p>
        ) : (
          <TestConsole agent={agent} />
        )}
        {admin ? (
          <section aria-labelledby="settings-heading" className="space-y-3">
            <h2 id="settings-heading" className="text-base font-semibold text-zinc-900">
              Settings
            </h2>
            <AgentForm key={agent.agent_id} agent={agent} />
          </section>
        ) : (
          <ReadOnlySettings agent={agent} />
        )}
      </div>
    </>
  );
}
