"use client";
// The Alerts page (admins): the organization's alert rules with their state (firing or ok, the last
// value, when it fired), a dialog to create or change one with the kind's own words and unit,
// enable/disable, "Send test" and delete after a confirmation. The rules are polled, so a rule that
// fires or resolves shows it without a reload (docs/console.md, Alerts).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { actionsColumn, DataTable, type DataColumn } from "@/components/console/data-table";
import { FormDialog } from "@/components/console/form-dialog";
import { formatDate, relative } from "@/components/console/format";
import { ListResult } from "@/components/console/list-result";
import { apiKey, request, useApi } from "@/components/console/use-api";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/misc";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { ALERT_KINDS, ALERT_UNITS, type AlertKind, type AlertRuleRecord as AlertRule } from "@/lib/alerts/schemas";
import { alertValue, KIND_WORDS } from "./shared";
import { useAllAgents } from "@/components/console/all-agents";

const RULES = "GET /api/v1/organizations/[org_id]/alert-rules";

type Form = {
  name: string;
  kind: AlertKind;
  agent_id: string;
  threshold: string;
  window_minutes: string;
  min_volume: string;
  quiet_minutes: string;
  url: string;
  email: string;
};

const EMPTY: Form = {
  name: "",
  kind: "error_rate",
  agent_id: "",
  threshold: "",
  window_minutes: "15",
  min_volume: "0",
  quiet_minutes: "0",
  url: "",
  email: "",
};

const formOf = (r: AlertRule): Form => ({
  name: r.name,
  kind: r.kind,
  agent_id: r.agent_id ?? "",
  threshold: String(r.threshold),
  window_minutes: String(r.window_minutes),
  min_volume: String(r.min_volume),
  quiet_minutes: String(r.quiet_minutes),
  url: r.url ?? "",
  email: r.email ?? "",
});

/** A number field's value as the API takes it (an empty or odd entry goes as it is: the server names it). */
const num = (v: string) => (v.trim() === "" || Number.isNaN(Number(v)) ? (v as unknown as number) : Number(v));

/** Which fields a kind uses: an agent (error rate, latency, reviews, callbacks), a window, a volume. */
const USES = {
  agent: (k: AlertKind) => k !== "key_expiring",
  window: (k: AlertKind) =>
    k === "error_rate" || k === "latency_p95" || k === "callbacks_failing" || k === "rate_limit",
  volume: (k: AlertKind) => k === "error_rate" || k === "latency_p95" || k === "rate_limit",
};

/** Creates a rule (`target` null) or changes `target`. */
function RuleDialog({ open, target, onClose }: { open: boolean; target: AlertRule | null; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const agents = useAllAgents({ staleTime: 60_000, enabled: open });
  const [form, setForm] = useState<Form>(EMPTY);
  const [shownFor, setShownFor] = useState<string | null | undefined>(undefined);
  // The form starts from the rule being changed each time the dialog opens on it.
  const key = open ? (target?.rule_id ?? null) : undefined;
  if (key !== shownFor) {
    setShownFor(key);
    setForm(target ? formOf(target) : EMPTY);
  }

  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: form.name,
        kind: form.kind,
        agent_id: USES.agent(form.kind) && form.agent_id ? form.agent_id : null,
        threshold: num(form.threshold),
        window_minutes: num(form.window_minutes),
        min_volume: num(form.min_volume),
        quiet_minutes: num(form.quiet_minutes),
        url: form.url.trim() || null,
        email: form.email.trim() || null,
      };
      return target
        ? request("PATCH /api/v1/organizations/[org_id]/alert-rules/[rule_id]", {
            params: { rule_id: target.rule_id },
            body,
          })
        : request("POST /api/v1/organizations/[org_id]/alert-rules", { body });
    },
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: apiKey(RULES) });
      toast({ tone: "success", message: target ? `Saved ${r.name}` : `Created ${r.name}` });
      close();
    },
  });
  const close = () => {
    save.reset();
    onClose();
  };
  const fields: Record<string, string | undefined> = save.error instanceof ConsoleApiError ? save.error.fields : {};
  /** A field's value, change and error, bound to the form by its key. */
  const bind = (k: keyof Form) => ({
    value: form[k],
    onValue: (v: string) => setForm({ ...form, [k]: v }),
    error: fields[k],
  });
  const words = KIND_WORDS[form.kind];
  const unit = ALERT_UNITS[form.kind];
  return (
    <FormDialog
      open={open}
      onClose={close}
      title={target ? `Change ${target.name}` : "New alert rule"}
      description="The worker checks each rule every minute. An alert fires once when the value crosses the threshold and resolves once when it no longer does; it goes to the URL as a signed event (as completion callbacks) and to the email address."
      formId="alert-rule-form"
      submitLabel={target ? "Save rule" : "Create rule"}
      pendingLabel="Saving…"
      pending={save.isPending}
      onSubmit={() => save.mutate()}
      autoComplete="off"
    >
      <TextField label="Name" {...bind("name")} autoFocus />
      <SelectField
        label="What to watch"
        {...bind("kind")}
        options={ALERT_KINDS.map((k) => [k, KIND_WORDS[k].label] as const)}
        hint={words.hint}
      />
      {USES.agent(form.kind) && (
        <SelectField
          label="Agent"
          {...bind("agent_id")}
          options={[
            ["", "Every agent"],
            ...(agents.data?.agents ?? []).map((a) => [a.agent_id, a.name] as const),
            // A rule's agent that is not in the list (archived since) stays selectable.
            ...(form.agent_id && !agents.data?.agents.some((a) => a.agent_id === form.agent_id)
              ? [[form.agent_id, form.agent_id] as const]
              : []),
          ]}
        />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={`${words.threshold} (${unit})`} inputMode="decimal" {...bind("threshold")} />
        {USES.window(form.kind) && (
          <TextField label="Window (minutes)" inputMode="numeric" {...bind("window_minutes")} />
        )}
        {USES.volume(form.kind) && (
          <TextField
            label={form.kind === "rate_limit" ? "Minimum requests" : "Minimum replies"}
            hint="Below this the rule does not judge."
            inputMode="numeric"
            {...bind("min_volume")}
          />
        )}
        <TextField
          label="Quiet period (minutes)"
          hint="After a resolve, no new alert for this long."
          inputMode="numeric"
          {...bind("quiet_minutes")}
        />
      </div>
      <TextField
        label="Webhook URL (optional)"
        hint="Receives alert.fired and alert.resolved, signed with the webhook signing secret."
        type="url"
        inputMode="url"
        spellCheck={false}
        {...bind("url")}
      />
      <TextField
        label="Email (optional)"
        hint="Sent when the service has SMTP configured."
        type="email"
        {...bind("email")}
      />
      {save.error && !Object.keys(fields).length && <ErrorState error={save.error} title="The rule was not saved" />}
    </FormDialog>
  );
}

function State({ rule }: { rule: AlertRule }) {
  if (!rule.enabled) return <Badge>Disabled</Badge>;
  return rule.firing ? <Badge tone="amber">Firing</Badge> : <Badge tone="indigo">OK</Badge>;
}

function When({ iso }: { iso: string | null }) {
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} title={formatDate(iso)}>
      {relative(iso)}
    </time>
  );
}

export function AlertsView() {
  const qc = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState<AlertRule | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<AlertRule | null>(null);
  // Polled: the worker moves a rule's state in the background.
  const rules = useApi(RULES, { query: { limit: 100 } }, { refetchInterval: 3_000 });
  const agents = useAllAgents({ staleTime: 60_000 });
  const agentName = (id: string | null) =>
    id ? (agents.data?.agents.find((a) => a.agent_id === id)?.name ?? id) : "Every agent";
  const toggle = useMutation({
    mutationFn: (r: AlertRule) =>
      request("PATCH /api/v1/organizations/[org_id]/alert-rules/[rule_id]", {
        params: { rule_id: r.rule_id },
        body: { enabled: !r.enabled },
      }),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: apiKey(RULES) });
      toast({ tone: "success", message: `${r.enabled ? "Enabled" : "Disabled"} ${r.name}` });
    },
    onError: (e) => toast({ tone: "error", message: "The rule was not changed", detail: e.message }),
  });
  const test = useMutation({
    mutationFn: (r: AlertRule) =>
      request("POST /api/v1/organizations/[org_id]/alert-rules/[rule_id]/test", { params: { rule_id: r.rule_id } }),
    onSuccess: (t) =>
      toast({
        tone: "success",
        message: "Test event queued",
        detail: `alert.test to ${t.url}, delivery ${t.delivery_id}`,
      }),
    onError: (e) => toast({ tone: "error", message: "The test was not sent", detail: e.message }),
  });
  const columns: DataColumn<AlertRule>[] = [
    {
      header: "Rule",
      className: "min-w-[10rem] [overflow-wrap:anywhere]",
      cell: (r) => (
        <>
          <span className="font-medium text-zinc-900">{r.name}</span>
          <span className="block text-xs text-zinc-600">
            {KIND_WORDS[r.kind].short} {r.kind === "key_expiring" ? "<" : ">"} {alertValue(r.kind, r.threshold)}
            {USES.agent(r.kind) ? ` · ${agentName(r.agent_id)}` : ""}
          </span>
          <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-zinc-600 sm:hidden">
            <State rule={r} />
            {r.last_value !== null && <span>now {alertValue(r.kind, r.last_value)}</span>}
          </span>
        </>
      ),
    },
    { header: "State", from: "sm", cell: (r) => <State rule={r} /> },
    {
      header: "Last value",
      from: "sm",
      className: "whitespace-nowrap tabular-nums",
      cell: (r) => (r.last_value === null ? "—" : alertValue(r.kind, r.last_value)),
    },
    { header: "Fired", from: "md", className: "whitespace-nowrap", cell: (r) => <When iso={r.fired_at} /> },
    {
      header: "Goes to",
      from: "lg",
      className: "max-w-[14rem] text-xs [overflow-wrap:anywhere]",
      cell: (r) => [r.url, r.email].filter(Boolean).join(", ") || <span className="text-zinc-500">history only</span>,
    },
    actionsColumn(
      (r) => r.name,
      (r) => [
        { label: "Edit", onClick: () => setEditing(r) },
        { label: r.enabled ? "Disable" : "Enable", onClick: () => toggle.mutate(r) },
        Boolean(r.url) && { label: "Send test", onClick: () => test.mutate(r) },
        { label: "Delete", onClick: () => setDeleting(r) },
      ],
    ),
  ];
  return (
    <>
      <PageHeader
        title="Alerts"
        description="Be told when an agent fails, slows down, leaves reviews waiting, its callbacks fail, a key is about to expire or a key nears its rate limit."
        actions={
          <>
            <Link
              href="/alerts/history"
              className="inline-flex items-center rounded-md px-3 py-2 text-sm font-medium text-indigo-700 hover:bg-indigo-50"
            >
              History
            </Link>
            <Button onClick={() => setCreating(true)}>New rule</Button>
          </>
        }
      />
      <ListResult
        query={rules}
        rows={(d) => d.alert_rules}
        noun="alert rules"
        empty={
          <EmptyState
            title="No alert rules yet"
            action={<Button onClick={() => setCreating(true)}>Create a rule</Button>}
          >
            A rule watches one thing (an agent&apos;s error rate, its reply latency, reviews waiting, failing callbacks,
            keys expiring, rate limits) and sends a signed event to your URL when it crosses the threshold.
          </EmptyState>
        }
      >
        {(rows) => <DataTable label="Alert rules" columns={columns} rows={rows} rowKey={(r) => r.rule_id} />}
      </ListResult>
      <RuleDialog
        open={creating || Boolean(editing)}
        target={editing}
        onClose={() => {
          setCreating(false);
          setEditing(null);
        }}
      />
      <ConfirmWrite
        target={deleting}
        onClose={() => setDeleting(null)}
        title={`Delete ${deleting?.name ?? "rule"}?`}
        description="The rule stops being checked. Its history stays."
        verb="delete"
        noun="rule"
        write={(r) =>
          request("DELETE /api/v1/organizations/[org_id]/alert-rules/[rule_id]", { params: { rule_id: r.rule_id } })
        }
        done={(_x, r) => ({ message: `Deleted ${r.name}` })}
        invalidates={() => [apiKey(RULES)]}
      />
    </>
  );
}
