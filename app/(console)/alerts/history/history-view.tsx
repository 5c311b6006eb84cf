"use client";
// The alert history (every member): each time a rule fired or resolved, its value, when, and where
// it was delivered, with a link to the signed event's delivery; newest first, paged with the server's
// cursor, filtered by rule (in the URL). docs/console.md, Alerts.
import Link from "next/link";
import { DataTable, type DataColumn } from "@/components/console/data-table";
import { formatDate, relative } from "@/components/console/format";
import { ListResult } from "@/components/console/list-result";
import { useMe } from "@/components/console/me";
import { useApi, useApiPage } from "@/components/console/use-api";
import type { AlertEventRecord as AlertEvent } from "@/lib/alerts/schemas";
import { useUrlParams } from "@/components/console/url-params";
import { Badge } from "@/components/ui/badge";
import { SelectField } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { alertValue } from "../shared";

const LIMIT = 20;

function columns(kindOf: (ruleId: string) => Parameters<typeof alertValue>[0] | undefined): DataColumn<AlertEvent>[] {
  const value = (e: AlertEvent) => {
    const kind = kindOf(e.rule_id);
    return kind ? alertValue(kind, e.value) : e.value.toLocaleString("en-US", { maximumFractionDigits: 1 });
  };
  return [
    {
      header: "Event",
      cell: (e) => (e.event === "fired" ? <Badge tone="amber">Fired</Badge> : <Badge tone="indigo">Resolved</Badge>),
    },
    {
      header: "Rule",
      className: "[overflow-wrap:anywhere]",
      cell: (e) => (
        <>
          <span className="font-medium text-zinc-900">{e.rule_name}</span>
          <span className="block text-xs text-zinc-600 sm:hidden">
            {value(e)} · {relative(e.created_at)}
          </span>
        </>
      ),
    },
    { header: "Value", from: "sm", className: "whitespace-nowrap tabular-nums", cell: value },
    {
      header: "When",
      from: "sm",
      className: "whitespace-nowrap",
      cell: (e) => (
        <time dateTime={e.created_at} title={formatDate(e.created_at)}>
          {relative(e.created_at)}
        </time>
      ),
    },
    {
      header: "Delivered to",
      className: "text-xs [overflow-wrap:anywhere]",
      cell: (e) => (
        <>
          {/* An email is listed only once it was sent: without SMTP_URL a rule's address gets nothing. */}
          {e.delivered_to.length ? (
            e.delivered_to.join(", ")
          ) : (
            <span className="text-zinc-500">Nothing sent: recorded in the history only</span>
          )}
          {e.delivery_id && (
            <Link
              href={`/webhooks/deliveries/${e.delivery_id}`}
              className="block text-indigo-700 hover:underline"
              aria-label={`Delivery of the ${e.event} event of ${e.rule_name}`}
            >
              Delivery
            </Link>
          )}
        </>
      ),
    },
  ];
}

export function AlertHistoryView() {
  const me = useMe();
  const url = useUrlParams({ rule_id: "" }, { limit: LIMIT });
  const events = useApiPage(
    "GET /api/v1/organizations/[org_id]/alert-events",
    { query: { rule_id: url.filters.rule_id, cursor: url.cursor, limit: url.limit } },
    { refetchInterval: 5_000 },
  );
  // The rules name the filter's choices and the values' units; support members do not read rules.
  const rules = useApi(
    "GET /api/v1/organizations/[org_id]/alert-rules",
    { query: { limit: 100 } },
    { enabled: me.role === "admin", staleTime: 30_000 },
  );
  const list = rules.data?.alert_rules ?? [];
  const kindOf = (ruleId: string) => list.find((r) => r.rule_id === ruleId)?.kind;
  return (
    <>
      <PageHeader
        title="Alert history"
        description="Each time an alert rule fired or resolved: its value, when, and where it was delivered."
        actions={
          me.role === "admin" && (
            <Link
              href="/alerts"
              className="inline-flex items-center rounded-md px-3 py-2 text-sm font-medium text-indigo-700 hover:bg-indigo-50"
            >
              Rules
            </Link>
          )
        }
      />
      {list.length > 0 && (
        <SelectField
          label="Rule"
          className="mb-4 max-w-xs"
          value={url.filters.rule_id}
          onChange={(e) => url.update({ rule_id: e.target.value })}
          options={[["", "Every rule"], ...list.map((r) => [r.rule_id, r.name] as const)]}
        />
      )}
      <ListResult
        query={events}
        rows={(d) => d.alert_events}
        noun="alert events"
        paging={url.paging}
        empty={
          <EmptyState title={url.filters.rule_id ? "This rule has not fired yet" : "No alerts yet"}>
            When a rule fires or resolves, it is listed here with its value and where it was delivered.
          </EmptyState>
        }
      >
        {(rows) => <DataTable label="Alert history" columns={columns(kindOf)} rows={rows} rowKey={(e) => e.alert_id} />}
      </ListResult>
    </>
  );
}
