"use client";
// A canary rollout in progress: both versions side by side with their figures since it started
// (traffic, errors, reply latency, tokens, cost), polled every 5 s; admins change the canary's
// share, complete it (100 %) or roll it back, each after a confirmation where it cannot be undone.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { formatCost, formatDate, formatMs, formatNumber, relative } from "@/components/console/format";
import { useIsAdmin } from "@/components/console/me";
import { apiKey, request, useApi } from "@/components/console/use-api";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/misc";
import { ErrorState, Skeleton } from "@/components/ui/states";
import { Table, TBody, Td, THead, Tr } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import type { AgentRecord, RolloutRecord, RolloutReport } from "@/lib/agents/schemas";
import { parsePercent, PercentField } from "./percent-field";
import { RollbackDialog } from "./version-dialogs";

const AGENT = "GET /api/v1/organizations/[org_id]/agents/[agent_id]";
const ROLLOUT = "POST /api/v1/organizations/[org_id]/agents/[agent_id]/rollout";
/** What a write to the rollout changes: the agent (its versions, its figures) and the agents list. */
const agentWrites = (agentId: string) => [
  apiKey(AGENT, { params: { agent_id: agentId } }),
  apiKey("GET /api/v1/organizations/[org_id]/agents"),
];

type Figures = RolloutReport["versions"][number];

const percent = (n: number | null) =>
  n === null ? "—" : `${n.toLocaleString("en-US", { maximumFractionDigits: 1 })} %`;

/** The rows of the side-by-side table: a label and each version's cell. */
function rows(kind: AgentRecord["kind"]): [string, (f: Figures) => ReactNode][] {
  const work: [string, (f: Figures) => ReactNode][] =
    kind === "workflow"
      ? [
          ["Runs started", (f) => formatNumber(f.runs_started)],
          ["Runs ended", (f) => formatNumber(f.runs_ended)],
          ["Runs failed", (f) => formatNumber(f.runs_failed)],
        ]
      : [
          ["Replies", (f) => formatNumber(f.replies)],
          ["Replies failed", (f) => formatNumber(f.replies_failed)],
        ];
  return [
    ["Traffic share", (f) => `${f.traffic_percent} %`],
    ["Triggers", (f) => formatNumber(f.triggers)],
    ...work,
    ["Error rate", (f) => percent(f.error_rate)],
    ["Reply latency p50", (f) => formatMs(f.latency_p50_ms)],
    ["Reply latency p95", (f) => formatMs(f.latency_p95_ms)],
    ["Tokens", (f) => `${formatNumber(f.prompt_tokens)} in, ${formatNumber(f.completion_tokens)} out`],
    ["Cost", (f) => formatCost(f.cost)],
  ];
}

function FiguresTable({ agent, versions }: { agent: AgentRecord; versions: Figures[] }) {
  // The canary first, then the published version.
  const sides = [...versions].sort((a, b) => (a.role === b.role ? 0 : a.role === "canary" ? -1 : 1));
  return (
    <Table label="Both versions since the rollout started">
      <THead>
        <Tr>
          <th scope="col" className="px-3 py-2.5">
            <span className="sr-only">Figure</span>
          </th>
          {sides.map((f) => (
            <th key={f.version} scope="col" className="px-3 py-2.5 normal-case">
              Version {f.version} <span className="font-normal text-zinc-600">({f.role})</span>
            </th>
          ))}
        </Tr>
      </THead>
      <TBody>
        {rows(agent.kind).map(([label, cell]) => (
          <Tr key={label}>
            <th scope="row" className="px-3 py-2.5 text-left font-medium text-zinc-700">
              {label}
            </th>
            {sides.map((f) => (
              <Td key={f.version} className="tabular-nums">
                {cell(f)}
              </Td>
            ))}
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/** The admin's controls: a new share, Complete (100 %) and Roll back. */
function RolloutControls({ agent, rollout }: { agent: AgentRecord; rollout: RolloutRecord }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [share, setShare] = useState(String(rollout.percent));
  const [completing, setCompleting] = useState(false);
  const [rollingBack, setRollingBack] = useState(false);
  const wanted = parsePercent(share);
  const invalidate = () => {
    for (const queryKey of agentWrites(agent.agent_id)) void qc.invalidateQueries({ queryKey });
  };
  const change = useMutation({
    mutationFn: (p: number) => request(ROLLOUT, { params: { agent_id: agent.agent_id }, body: { percent: p } }),
    onSuccess: (saved) => {
      toast({
        tone: "success",
        message: saved.rollout
          ? `Version ${saved.rollout.version} now serves ${saved.rollout.percent} %`
          : `Version ${saved.published_version} serves everyone`,
      });
      invalidate();
    },
  });
  return (
    <div className="mt-4 space-y-3">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (wanted !== null) change.mutate(wanted);
        }}
      >
        <div className="min-w-56 flex-1">
          <PercentField label={`Share of version ${rollout.version} (%)`} value={share} onValue={setShare} />
        </div>
        <Button
          type="submit"
          variant="secondary"
          disabled={wanted === null || wanted === rollout.percent || change.isPending}
        >
          {change.isPending ? "Changing…" : "Change share"}
        </Button>
      </form>
      {change.error && <ErrorState error={change.error} title="The share was not changed" />}
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => setCompleting(true)}>Complete rollout</Button>
        <Button variant="danger" onClick={() => setRollingBack(true)}>
          Roll back
        </Button>
      </div>
      <ConfirmWrite
        target={completing ? agent : null}
        onClose={() => setCompleting(false)}
        title={`Complete the rollout of version ${rollout.version}?`}
        description={`Version ${rollout.version} will serve all new sessions and runs; version ${rollout.from_version} stops serving new ones. Open sessions and runs keep their version.`}
        verb="complete"
        noun="rollout"
        write={(a) => request(ROLLOUT, { params: { agent_id: a.agent_id }, body: { percent: 100 } })}
        done={(a) => ({ message: `Version ${a.published_version} is live for everyone` })}
        invalidates={(a) => agentWrites(a.agent_id)}
      />
      <RollbackDialog agent={agent} open={rollingBack} onClose={() => setRollingBack(false)} />
    </div>
  );
}

export function RolloutCard({ agent }: { agent: AgentRecord }) {
  const admin = useIsAdmin();
  const qc = useQueryClient();
  // Polled every 5 s while a rollout is on.
  const figures = useApi(
    "GET /api/v1/organizations/[org_id]/agents/[agent_id]/rollout",
    { params: { agent_id: agent.agent_id } },
    { enabled: agent.rollout !== null, refetchInterval: (q) => (q.state.data?.rollout ? 5_000 : false) },
  );
  const rollout = agent.rollout!;
  const seen = figures.data?.rollout;
  // The rollout moved elsewhere (a guard rolled it back, another admin changed it): read the agent again.
  const moved = figures.data && (seen?.version !== rollout.version || seen?.percent !== rollout.percent);
  useEffect(() => {
    if (moved)
      void qc.invalidateQueries({ queryKey: apiKey(AGENT, { params: { agent_id: agent.agent_id } }), exact: true });
  }, [moved, qc, agent.agent_id]);
  return (
    <div data-testid="rollout-card">
      <Card
        title={`Rollout: version ${rollout.version} serves ${rollout.percent} % of new sessions and runs`}
        className="ring-sky-300"
      >
        <p className="mb-3 text-sm text-zinc-700">
          Started{" "}
          <time dateTime={rollout.started_at} title={formatDate(rollout.started_at)}>
            {relative(rollout.started_at)}
          </time>
          . Version {rollout.from_version} serves the rest; each end user stays on the version they got.
          {rollout.guard_rule_ids.length > 0 &&
            ` ${rollout.guard_rule_ids.length === 1 ? "One guard rule rolls" : `${rollout.guard_rule_ids.length} guard rules roll`} it back if it fires on the canary's traffic.`}{" "}
          <span className="text-zinc-600">Figures since it started, updated every 5 s.</span>
        </p>
        {figures.isPending ? (
          <Skeleton className="h-48 w-full" />
        ) : figures.error ? (
          <ErrorState error={figures.error} title="The rollout's figures could not be loaded" />
        ) : (
          <FiguresTable agent={agent} versions={figures.data.versions} />
        )}
        {admin && <RolloutControls key={rollout.percent} agent={agent} rollout={rollout} />}
      </Card>
    </div>
  );
}
