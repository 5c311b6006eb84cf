"use client";
// An evaluation's cases: the filters (outcome, changed) and the page kept in the URL, the table, and
// the case view over it (j/k move through the page's cases).
import { useState } from "react";
import { DataTable, type DataColumn } from "@/components/console/data-table";
import { formatMs } from "@/components/console/format";
import { ListResult } from "@/components/console/list-result";
import { ShortId } from "@/components/console/short-id";
import { useUrlParams } from "@/components/console/url-params";
import { useApiPage } from "@/components/console/use-api";
import { StatusBadge } from "@/components/ui/badge";
import { RowAction } from "@/components/ui/button";
import { SelectField } from "@/components/ui/field";
import { Card } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import type { EvaluationCaseRecord, EvaluationRecord } from "@/lib/evaluations/schemas";
import { CaseView } from "./case-view";
import { movedOf } from "./labels";

const OUTCOMES = [
  ["", "Any outcome"],
  ["passed", "Passed"],
  ["failed", "Failed"],
  ["errored", "Errored"],
  ["skipped", "Skipped"],
] as const;
const CHANGED = [
  ["", "Changed or not"],
  ["true", "Changed"],
  ["false", "Unchanged"],
] as const;

export function CaseList({ evaluation: e }: { evaluation: EvaluationRecord }) {
  const url = useUrlParams({ outcome: "", changed: "" }, { limit: 20, maxLimit: 200 });
  // Read again as the evaluation moves: its status or its count of cases done changes.
  const q = useApiPage(
    "GET /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases",
    {
      params: { agent_id: e.agent_id, evaluation_id: e.evaluation_id },
      query: { outcome: url.filters.outcome, changed: url.filters.changed, limit: url.limit, cursor: url.cursor },
    },
    { version: movedOf(e) },
  );
  const [open, setOpen] = useState<number | null>(null);
  const rows = q.data?.cases ?? [];
  const columns: DataColumn<EvaluationCaseRecord>[] = [
    { header: "#", cell: (c) => c.position + 1, className: "tabular-nums" },
    { header: "Source", cell: (c) => <ShortId id={c.source.id} /> },
    { header: "Outcome", cell: (c) => (c.outcome ? <StatusBadge status={c.outcome} /> : c.status) },
    { header: "Changed", cell: (c) => (c.changed === null ? "—" : c.changed ? "changed" : "same"), from: "sm" },
    { header: "Latency", cell: (c) => formatMs(c.candidate?.latency_ms), from: "sm" },
    { header: "Verdict", cell: (c) => c.verdict ?? "—", from: "sm" },
    {
      header: "Case",
      cell: (c) => (
        <RowAction onClick={() => setOpen(rows.indexOf(c))} aria-label={`Open case ${c.position + 1}`}>
          Open
        </RowAction>
      ),
    },
  ];
  return (
    <Card title="Cases">
      <div className="mb-4 grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Outcome"
          value={url.filters.outcome}
          options={OUTCOMES}
          onValue={(v) => url.update({ outcome: v })}
        />
        <SelectField
          label="Changed"
          value={url.filters.changed}
          options={CHANGED}
          onValue={(v) => url.update({ changed: v })}
        />
      </div>
      <ListResult
        query={q}
        rows={(d) => d.cases}
        noun="cases"
        paging={url.paging}
        order="position"
        empty={<EmptyState title={url.filtered ? "No case matches these filters" : "No cases yet"} />}
      >
        {(cases) => <DataTable label="Cases" columns={columns} rows={cases} rowKey={(c) => c.case_id} />}
      </ListResult>
      {open !== null && rows[open] && (
        <CaseView
          evaluation={e}
          item={rows[open]}
          index={open}
          count={rows.length}
          onMove={(i) => setOpen(Math.max(0, Math.min(rows.length - 1, i)))}
          onClose={() => setOpen(null)}
        />
      )}
    </Card>
  );
}
