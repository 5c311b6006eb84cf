"use client";
// The agent page's Versions tab: the versions, newest first, a page at a time (superseded drafts
// hidden unless asked for), each with View, Compare and, for admins, Restore or (the draft)
// Publish; the comparison of two versions above the list, and Roll back. The tab, the compared
// versions and the page are kept in the URL.
import { useEffect, useRef, useState } from "react";
import { actionsColumn, DataTable, type DataColumn } from "@/components/console/data-table";
import { formatDate, relative } from "@/components/console/format";
import { ListResult } from "@/components/console/list-result";
import { useIsAdmin } from "@/components/console/me";
import { useApi, useApiPage } from "@/components/console/use-api";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CheckboxField, SelectField } from "@/components/ui/field";
import { Card } from "@/components/ui/misc";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import type { AgentRecord, VersionListItem } from "@/lib/agents/schemas";
import type { AgentPageUrl } from "./page-url";
import { EvaluateDraftButton } from "./evaluate-draft";
import { ChangeList } from "./version-diff";
import { RestoreDialog, RollbackDialog } from "./version-dialogs";
import { VersionDialog } from "./version-view";

const versionOf = (s: string) => (/^[1-9]\d{0,8}$/.test(s) ? Number(s) : null);

const who = (v: VersionListItem) => v.created_by.label ?? v.created_by.type;

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDate(iso)}>
      {relative(iso)}
    </time>
  );
}

/** Two versions side by side: the pickers, then the changes from one to the other. */
function Compare({
  agentId,
  from,
  to,
  choices,
  url,
  focus,
}: {
  agentId: string;
  from: number;
  to: number;
  choices: VersionListItem[];
  url: AgentPageUrl;
  focus: React.RefObject<boolean>;
}) {
  const diff = useApi("GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]/diff", {
    params: { agent_id: agentId, version: from },
    query: { to },
  });
  const heading = useRef<HTMLHeadingElement>(null);
  // Reached from a row's Compare: the comparison takes the focus (and the screen).
  useEffect(() => {
    if (focus.current && heading.current) {
      heading.current.focus();
      focus.current = false;
    }
  }, [from, to, focus]);
  const numbers = [...new Set([...choices.map((v) => v.version), from, to])].sort((a, b) => b - a);
  const label = (n: number) => {
    const v = choices.find((c) => c.version === n);
    return v ? `Version ${n} (${v.state.replace("_", " ")})` : `Version ${n}`;
  };
  const options = numbers.map((n) => [n, label(n)] as const);
  return (
    <Card
      title="Compare versions"
      actions={
        <Button variant="ghost" size="sm" onClick={() => url.update({ from: "", to: "" })}>
          Close comparison
        </Button>
      }
      className="mb-4"
    >
      <div className="mb-4 grid gap-3 sm:grid-cols-2">
        <SelectField label="From version" value={from} options={options} onValue={(v) => url.update({ from: v })} />
        <SelectField label="To version" value={to} options={options} onValue={(v) => url.update({ to: v })} />
      </div>
      <h3
        ref={heading}
        tabIndex={-1}
        className="mb-3 text-sm font-semibold text-zinc-900 scroll-mt-20 focus:outline-none"
      >
        Changes from version {from} to version {to}
      </h3>
      {diff.isPending ? (
        <SkeletonRows rows={3} label="Loading the changes" />
      ) : diff.error ? (
        <ErrorState error={diff.error} title="The versions could not be compared" />
      ) : (
        <ChangeList changes={diff.data.changes} from={from} to={to} />
      )}
    </Card>
  );
}

export function VersionsTab({
  agent,
  url,
  onPublish,
}: {
  agent: AgentRecord;
  url: AgentPageUrl;
  onPublish: () => void;
}) {
  const admin = useIsAdmin();
  const [viewing, setViewing] = useState<number | null>(null);
  const [restoring, setRestoring] = useState<VersionListItem | null>(null);
  const [rollingBack, setRollingBack] = useState(false);
  const focusCompare = useRef(false);
  const list = useApiPage("GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions", {
    params: { agent_id: agent.agent_id },
    query: { limit: url.limit, cursor: url.cursor },
  });
  const showSuperseded = url.filters.superseded === "1";
  const from = versionOf(url.filters.from);
  const to = versionOf(url.filters.to);
  const loaded = list.data?.versions ?? [];
  // Something served before the published version: a rollback has somewhere to go.
  const canRollBack = admin && !agent.rollout && agent.previous_version !== null;
  const compare = (v: VersionListItem) => {
    focusCompare.current = true;
    url.update({ from: String(v.base_version ?? agent.published_version), to: String(v.version) });
  };

  const columns: DataColumn<VersionListItem>[] = [
    {
      header: "Version",
      cell: (v) => (
        <>
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-medium whitespace-nowrap text-zinc-900">Version {v.version}</span>
            <StatusBadge status={v.state} />
          </span>
          {/* On a phone the other columns fold in here. */}
          <span className="mt-1 block text-xs text-zinc-600 md:hidden">
            {v.traffic_percent} % of traffic · {who(v)} · <When iso={v.created_at} />
            {v.note && <span className="mt-0.5 block [overflow-wrap:anywhere] text-zinc-800">{v.note}</span>}
          </span>
        </>
      ),
    },
    {
      header: "Traffic",
      from: "md",
      className: "whitespace-nowrap tabular-nums",
      cell: (v) => `${v.traffic_percent} %`,
    },
    { header: "Who", from: "md", className: "[overflow-wrap:anywhere]", cell: who },
    { header: "When", from: "md", className: "whitespace-nowrap", cell: (v) => <When iso={v.created_at} /> },
    { header: "Note", from: "md", className: "[overflow-wrap:anywhere]", cell: (v) => v.note ?? "—" },
    {
      ...actionsColumn<VersionListItem>(
        (v) => `version ${v.version}`,
        (v) => [
          { label: "View", onClick: () => setViewing(v.version) },
          { label: "Compare", onClick: () => compare(v) },
          admin && v.state !== "draft" && { label: "Restore", onClick: () => setRestoring(v) },
          admin && v.state === "draft" && { label: "Publish", onClick: onPublish },
        ],
      ),
      // In a row on a laptop; stacked beside the version on a phone.
      className: "w-px text-right md:[&>div]:flex-nowrap",
    },
  ];

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-2xl text-sm text-zinc-700">
          Every change of the runtime, workflow or callback URL is a new version. Version {agent.published_version}{" "}
          serves {agent.rollout ? `${100 - agent.rollout.percent} %` : "all"} of new sessions and runs; open sessions
          and runs keep the version they started with.
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <CheckboxField
            label="Show superseded drafts"
            checked={showSuperseded}
            onChecked={(on) => url.update({ superseded: on ? "1" : "" })}
          />
          <EvaluateDraftButton agent={agent} />
          {canRollBack && (
            <Button variant="secondary" size="sm" onClick={() => setRollingBack(true)}>
              Roll back
            </Button>
          )}
        </div>
      </div>
      {from !== null && to !== null && (
        <Compare agentId={agent.agent_id} from={from} to={to} choices={loaded} url={url} focus={focusCompare} />
      )}
      <ListResult
        query={list}
        rows={(d) => d.versions.filter((v) => showSuperseded || v.state !== "superseded")}
        noun="versions"
        paging={url.paging}
        empty={<EmptyState title="Only superseded drafts here">Tick “Show superseded drafts” to see them.</EmptyState>}
      >
        {(rows) => (
          <DataTable
            label="Versions"
            columns={columns}
            rows={rows}
            rowKey={(v) => String(v.version)}
            rowProps={(v) => ({ "data-version": String(v.version), "data-state": v.state })}
          />
        )}
      </ListResult>
      <VersionDialog agentId={agent.agent_id} version={viewing} onClose={() => setViewing(null)} />
      {admin && <RestoreDialog agent={agent} target={restoring} onClose={() => setRestoring(null)} />}
      {admin && <RollbackDialog agent={agent} open={rollingBack} onClose={() => setRollingBack(false)} />}
    </div>
  );
}
