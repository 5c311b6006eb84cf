"use client";
import { ExportButton } from "@/components/console/export-button";
import { useAudit } from "@/components/console/queries";
import { AUDIT_ACTIONS, AUDIT_GROUPS, auditActionLabel, type AuditGroup } from "@/lib/audit-actions";
import { FilterBar, ListPage } from "@/components/console/list-page";
import { useUrlParams } from "@/components/console/url-params";
import { formatDate, relative } from "@/components/console/format";
import { Badge } from "@/components/ui/badge";
import { Field, Select } from "@/components/ui/field";
import { Mono } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { Table, TBody, Td, Tr } from "@/components/ui/table";

const DEFAULT_LIMIT = 50;

/** The filter's options: each group's `group.*` (where it has one), then its actions (lib/audit-actions.ts). */
const ACTION_GROUPS = (Object.keys(AUDIT_GROUPS) as AuditGroup[]).map((group) => {
  const { label, ...g } = AUDIT_GROUPS[group];
  const any: [string, string][] = "any" in g ? [[`${group}.*`, g.any]] : [];
  const actions = AUDIT_ACTIONS.filter((a) => a.group === group).map((a): [string, string] => [a.action, a.label]);
  return { label, actions: [...any, ...actions] };
});
const FILTER_VALUES = new Set(ACTION_GROUPS.flatMap((g) => g.actions.map(([value]) => value)));

const ACTOR_TYPES: Record<string, string> = { user: "user", access_key: "Access Key", system: "system" };

/** An email or id that may wrap, preferably before its `@`. */
function Breakable({ text }: { text: string }) {
  const at = text.indexOf("@");
  if (at <= 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <wbr />
      {text.slice(at)}
    </>
  );
}

function compactJson(data: unknown): string {
  if (data == null) return "";
  if (typeof data === "object" && Object.keys(data as object).length === 0) return "";
  return JSON.stringify(data);
}

export function AuditView() {
  const url = useUrlParams({ action: "" }, { limit: DEFAULT_LIMIT });
  const { update } = url;
  const action = url.filters.action;
  const events = useAudit({ action, cursor: url.cursor, limit: url.limit });
  const known = FILTER_VALUES.has(action);

  return (
    <ListPage
      title="Audit log"
      actions={<ExportButton kind="audit" />}
      description="Who did what in this organization, newest first: keys, agents, run controls, members and sign-ins."
      filters={
        <FilterBar label="Filter the audit log" filtered={Boolean(action)} onClear={() => update({ action: "" })}>
          <Field label="Action" className="w-full sm:w-72">
            {({ id }) => (
              <Select id={id} value={action} onChange={(e) => update({ action: e.target.value })}>
                <option value="">All actions</option>
                {ACTION_GROUPS.map((g) => (
                  <optgroup key={g.label} label={g.label}>
                    {g.actions.map(([value, label]) => (
                      <option key={value} value={value}>
                        {label} ({value})
                      </option>
                    ))}
                  </optgroup>
                ))}
                {action && !known && <option value={action}>{action}</option>}
              </Select>
            )}
          </Field>
        </FilterBar>
      }
      query={events}
      rows={(d) => d.events}
      noun="events"
      paging={url.paging}
      filtered={Boolean(action)}
      onClear={() => update({ action: "" })}
      noMatch="Choose another action or clear the filter."
      none={
        <EmptyState title="No events yet">
          Minting keys, changing agents, controlling runs, changing members and signing in are recorded here.
        </EmptyState>
      }
    >
      {(rows) => (
        <Table label="Audit log" columns={["When", "Who", "What", ["Target", "md"], "Details"]}>
          <TBody>
            {rows.map((e) => {
              const details = compactJson(e.data);
              return (
                <Tr key={e.event_id}>
                  <Td className="whitespace-nowrap">
                    <time dateTime={e.at} title={formatDate(e.at)}>
                      <span className="hidden sm:inline">{formatDate(e.at)}</span>
                      <span className="block text-xs text-zinc-600 max-sm:text-sm max-sm:text-zinc-900">
                        {relative(e.at)}
                      </span>
                    </time>
                  </Td>
                  <Td className="max-w-[14rem] min-w-[8rem]">
                    <div className="[overflow-wrap:anywhere]">
                      <Breakable text={e.actor.label ?? e.actor.id ?? e.actor.type} />
                    </div>
                    <div className="mt-0.5">
                      <Badge>{ACTOR_TYPES[e.actor.type] ?? e.actor.type}</Badge>
                    </div>
                  </Td>
                  <Td className="min-w-[9rem]">
                    <div className="font-medium">{auditActionLabel(e.action)}</div>
                    <Mono className="text-zinc-600">{e.action}</Mono>
                  </Td>
                  <Td className="hidden max-w-[14rem] md:table-cell">
                    <div>{e.target.type.replace(/_/g, " ")}</div>
                    <Mono className="text-zinc-600">{e.target.id}</Mono>
                  </Td>
                  <Td className="max-w-[22rem] min-w-[10rem]">
                    {details ? (
                      <Mono className="text-zinc-800">{details}</Mono>
                    ) : (
                      <span className="text-zinc-500">—</span>
                    )}
                  </Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
      )}
    </ListPage>
  );
}
