"use client";
// The agent page's Settings tab: for admins the form over the agent's head (its draft when it has
// one, else a rollout's new version, else the published version), for support members the
// published settings, read-only.
import { useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { JsonEditor } from "@/components/console/json-editor";
import { useIsAdmin } from "@/components/console/me";
import { apiKey, useApi } from "@/components/console/use-api";
import { Card, Details, Mono } from "@/components/ui/misc";
import { ErrorState, Skeleton } from "@/components/ui/states";
import type { AgentRecord } from "@/lib/agents/schemas";
import { AgentForm } from "../agent-form";
import { headOf, unpublishedHead } from "../head";
import { RUNTIME_LABELS } from "../runtime-labels";

const show = (v: unknown): ReactNode =>
  v === undefined || v === null || v === "" ? (
    "—"
  ) : typeof v === "object" ? (
    <Mono>{JSON.stringify(v)}</Mono>
  ) : (
    String(v)
  );

/** What a support member sees instead of the form: the published values, read-only. */
function ReadOnlySettings({ agent }: { agent: AgentRecord }) {
  const { type, ...rest } = agent.runtime;
  return (
    <Card title={`Settings (published version ${agent.published_version})`}>
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

export function AgentSettings({ agent }: { agent: AgentRecord }) {
  const admin = useIsAdmin();
  const qc = useQueryClient();
  // The version the form edits, read once: a change made meanwhile is the form's to report (it
  // keeps what was typed), and "Reload" reads the agent again.
  const [loaded, setLoaded] = useState({ n: 0, head: unpublishedHead(agent), base: headOf(agent) });
  const head = admin ? loaded.head : null;
  const draft = useApi(
    "GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]",
    { params: { agent_id: agent.agent_id, version: head ?? "" } },
    { enabled: head !== null },
  );
  if (!admin) return <ReadOnlySettings agent={agent} />;
  const reload = async () => {
    const key = apiKey("GET /api/v1/organizations/[org_id]/agents/[agent_id]", {
      params: { agent_id: agent.agent_id },
    });
    await qc.invalidateQueries({ queryKey: key, exact: true });
    const fresh = qc.getQueryData<AgentRecord>(key) ?? agent;
    setLoaded((l) => ({ n: l.n + 1, head: unpublishedHead(fresh), base: headOf(fresh) }));
  };
  if (loaded.head !== null && draft.isPending) {
    return (
      <div role="status" aria-label="Loading the draft" className="space-y-4">
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  if (draft.error) return <ErrorState error={draft.error} title="The draft could not be loaded" />;
  const edited =
    loaded.head !== null && draft.data
      ? { ...agent, runtime: draft.data.runtime, workflow: draft.data.workflow, callback_url: draft.data.callback_url }
      : agent;
  return (
    <section aria-labelledby="settings-heading" className="space-y-3">
      <h2 id="settings-heading" className="text-base font-semibold text-zinc-900">
        {loaded.head === null
          ? "Settings"
          : loaded.head === agent.draft_version
            ? `Settings (draft version ${loaded.head})`
            : `Settings (version ${loaded.head}, rolling out)`}
      </h2>
      <p className="text-sm text-zinc-700">
        Saving writes a draft version: triggers keep the published version until the draft is published. The name
        changes at once.
      </p>
      <AgentForm key={loaded.n} agent={edited} base={loaded.base} onReload={() => void reload()} />
    </section>
  );
}
