"use client";
// An agent's page: its header, the draft banner and the rollout card when there are any, and three
// tabs (Overview: about, usage and the test console; Versions; Settings), the tab kept in the URL.
import dynamic from "next/dynamic";
import Link from "next/link";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { useApi } from "@/components/console/use-api";
import { formatDate } from "@/components/console/format";
import { useIsAdmin } from "@/components/console/me";
import { UsageCharts } from "@/components/console/usage-charts-lazy";
import { BackLink, Card, CopyButton, Details, Mono, PageHeader } from "@/components/ui/misc";
import { ErrorState, Skeleton, SkeletonRows } from "@/components/ui/states";
import { DetailState } from "@/components/console/detail-state";
import { Tabs } from "@/components/ui/tabs";
import type { AgentRecord } from "@/lib/agents/schemas";
import { ArchivedBadge, KindBadge } from "../agents-view";
import { DraftBanner } from "./draft-banner";
import { useAgentPageUrl } from "./page-url";
import { TestConsole } from "./test-console";

// The parts not on the first view (another tab, a rollout, a dialog) load when they show: the page's
// first load stays within its budget (docs/console.md, Looks, accessibility, weight).
const loading = () => <SkeletonRows label="Loading" />;
const VersionsTab = dynamic(() => import("./versions-tab").then((m) => m.VersionsTab), { loading });
const EvaluationsTab = dynamic(() => import("./evaluations-tab").then((m) => m.EvaluationsTab), { loading });
const AgentSettings = dynamic(() => import("./agent-settings").then((m) => m.AgentSettings), { loading });
const RolloutCard = dynamic(() => import("./rollout-card").then((m) => m.RolloutCard), { loading });
const PublishDialog = dynamic(() => import("./publish-dialog").then((m) => m.PublishDialog));

const TABS = [
  { key: "overview", label: "Overview" },
  { key: "versions", label: "Versions" },
  { key: "evaluations", label: "Evaluations" },
  { key: "settings", label: "Settings" },
] as const;
type TabKey = (typeof TABS)[number]["key"];

const linkClass = "text-sm font-medium text-indigo-700 underline-offset-2 hover:underline";

function Overview({ agent }: { agent: AgentRecord }) {
  return (
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
    </div>
  );
}

export function AgentDetailView({ agentId }: { agentId: string }) {
  const admin = useIsAdmin();
  const q = useApi("GET /api/v1/organizations/[org_id]/agents/[agent_id]", { params: { agent_id: agentId } });
  const url = useAgentPageUrl();
  const [publishing, setPublishing] = useState(false);
  const tab: TabKey = TABS.find((t) => t.key === url.filters.tab)?.key ?? "overview";
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
  // An id this organization has no agent for: "Agent not found", as runs, sessions and keys say it.
  if (q.error instanceof ConsoleApiError && q.error.code === "agent_not_found") {
    return <DetailState query={q} of="agent" id={agentId} />;
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
            <span>· version {agent.published_version} live</span>
          </span>
        }
        actions={
          <Link href={listHref} className={linkClass}>
            {agent.kind === "workflow" ? "Runs of this agent" : "Sessions of this agent"}
          </Link>
        }
      />
      {(agent.draft_version !== null || agent.rollout) && (
        <div className="mb-6 space-y-4">
          {agent.draft_version !== null && (
            <DraftBanner
              agent={agent}
              onPublish={() => setPublishing(true)}
              onReview={() =>
                url.update({ tab: "versions", from: String(agent.published_version), to: String(agent.draft_version) })
              }
            />
          )}
          {agent.rollout && <RolloutCard agent={agent} />}
        </div>
      )}
      <Tabs label="Agent" tabs={[...TABS]} selected={tab} onSelect={(k) => url.update({ tab: k })}>
        {tab === "overview" ? (
          <Overview agent={agent} />
        ) : tab === "versions" ? (
          <VersionsTab agent={agent} url={url} onPublish={() => setPublishing(true)} />
        ) : tab === "evaluations" ? (
          <EvaluationsTab agent={agent} url={url} />
        ) : (
          <AgentSettings key={agent.agent_id} agent={agent} />
        )}
      </Tabs>
      {admin && agent.draft_version !== null && (
        <PublishDialog agent={agent} open={publishing} onClose={() => setPublishing(false)} />
      )}
    </>
  );
}
