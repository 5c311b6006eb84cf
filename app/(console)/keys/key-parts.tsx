"use client";
// The parts of the keys list and a key's page: its state (expiry, roll grace), the usage preview,
// and the roll, change and revoke dialogs.
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { formatDate, formatNumber, relative, timeLeft } from "@/components/console/format";
import { apiKey, request, useApi } from "@/components/console/use-api";
import { ShownOnceDialog } from "@/components/console/shown-once-dialog";
import { FormDialog } from "@/components/console/form-dialog";
import { useMutation } from "@tanstack/react-query";
import { ConsoleApiError } from "@/components/console/api";
import { StatusBadge } from "@/components/ui/badge";
import { CheckboxGroup, SelectField, TextField } from "@/components/ui/field";
import { Details, Mono } from "@/components/ui/misc";
import { ErrorState, SkeletonRows } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import type { AccessKeyRecord as AccessKey, KeyUsagePreview as KeyUsage } from "@/lib/keys/schemas";
import { useAllAgents } from "@/components/console/all-agents";

const KEYS = "GET /api/v1/organizations/[org_id]/access-keys";

const DAY = 86_400_000;

/**
 * "expires in 3 days", "expires in 5 hours", "expired", or "never expires". Days and hours are
 * rounded to the nearest, as the key_expiring alert rounds its days left: a key minted for 2 days
 * reads "2 days" at 47.9 hours, not "1 day".
 */
export function expiryText(iso: string | null, now = Date.now()): string {
  if (!iso) return "never expires";
  const ms = new Date(iso).getTime() - now;
  if (ms <= 0) return "expired";
  if (ms >= DAY) {
    const d = Math.round(ms / DAY);
    return `expires in ${d} day${d === 1 ? "" : "s"}`;
  }
  const h = Math.min(23, Math.max(1, Math.round(ms / 3_600_000)));
  return `expires in ${h} hour${h === 1 ? "" : "s"}`;
}

/** The key's state as a badge: revoked, rolled (in its grace), expired, or active. */
export function keyState(k: AccessKey, now = Date.now()): "revoked" | "rolled" | "expired" | "active" {
  if (k.revoked_at) return "revoked";
  if (k.revoke_at) return new Date(k.revoke_at).getTime() <= now ? "revoked" : "rolled";
  if (k.expires_at && new Date(k.expires_at).getTime() <= now) return "expired";
  return "active";
}

export function KeyStateBadge({ k }: { k: AccessKey }) {
  return <StatusBadge status={keyState(k)} />;
}

/** The roll links of a key: "rolled to key_…, 5 h left" / "rolled from key_…". */
export function RollLinks({ k }: { k: AccessKey }) {
  return (
    <>
      {k.rolled_to_key_id && (
        <span className="block text-xs text-zinc-600">
          rolled to{" "}
          <Link href={`/keys/${k.rolled_to_key_id}`} className="break-all text-indigo-700 underline">
            {k.rolled_to_key_id}
          </Link>
          {k.revoke_at && !k.revoked_at && <>, {timeLeft(k.revoke_at)} of grace</>}
        </span>
      )}
      {k.rolled_from_key_id && (
        <span className="block text-xs text-zinc-600">
          rolled from{" "}
          <Link href={`/keys/${k.rolled_from_key_id}`} className="break-all text-indigo-700 underline">
            {k.rolled_from_key_id}
          </Link>
        </span>
      )}
    </>
  );
}

const count = (c: { count: number; capped: boolean }) => `${formatNumber(c.count)}${c.capped ? "+" : ""}`;

function UsageDetails({ usage }: { usage: KeyUsage }) {
  return (
    <Details
      items={[
        ["Requests, last 24 hours", count(usage.requests_24h)],
        ["Requests, last 7 days", count(usage.requests_7d)],
        ["Last request", usage.last_request_at ? relative(usage.last_request_at) : "never"],
        [
          "Agents (7 days)",
          usage.agents.length ? (
            <span className="flex flex-wrap gap-x-2">
              {usage.agents.map((a) => (
                <Link key={a.agent_id} href={`/agents/${a.agent_id}`} className="text-indigo-700 underline">
                  {a.name}
                </Link>
              ))}
            </span>
          ) : (
            "none"
          ),
        ],
        [
          "End users",
          usage.user_ids.length ? (
            <span className="break-words">
              {usage.user_ids.join(", ")}
              {usage.more_user_ids && " and more"}
            </span>
          ) : (
            "none"
          ),
        ],
        ["Sessions started", count(usage.sessions_started)],
        ["Runs started", count(usage.runs_started)],
      ]}
    />
  );
}

/** What the key is used for: what revoking it breaks. */
export function UsagePreview({ keyId }: { keyId: string | undefined }) {
  const usage = useApi(
    "GET /api/v1/organizations/[org_id]/access-keys/[key_id]/usage-preview",
    { params: { key_id: keyId ?? "" } },
    { enabled: !!keyId },
  );
  if (usage.data) return <UsageDetails usage={usage.data} />;
  if (usage.error) return <ErrorState error={usage.error} title="The key's usage could not be loaded" />;
  return <SkeletonRows rows={3} label="Loading the key's usage" />;
}

export function RevokeDialog({ target, onClose }: { target: AccessKey | null; onClose: () => void }) {
  return (
    <ConfirmWrite
      target={target}
      onClose={onClose}
      title={`Revoke ${target?.name ?? "key"}?`}
      description="Integrations using this key stop working within seconds. This cannot be undone; roll the key instead to give them time to switch."
      verb="revoke"
      noun="key"
      write={(k) =>
        request("DELETE /api/v1/organizations/[org_id]/access-keys/[key_id]", { params: { key_id: k.key_id } })
      }
      done={(k) => ({ message: `Revoked ${k.name}`, detail: "Requests with it are refused within seconds." })}
      invalidates={() => [apiKey(KEYS)]}
    >
      {target && (
        <div className="space-y-3">
          <p className="text-sm">
            <Mono>{target.start}…</Mono> · {target.permissions.join(", ") || "no permissions"}
          </p>
          <h3 className="text-sm font-semibold text-zinc-900">What uses it</h3>
          <UsagePreview keyId={target.key_id} />
        </div>
      )}
    </ConfirmWrite>
  );
}

const GRACES: { value: number; label: string }[] = [
  { value: 3600, label: "1 hour" },
  { value: 6 * 3600, label: "6 hours" },
  { value: 86_400, label: "1 day" },
  { value: 3 * 86_400, label: "3 days" },
  { value: 7 * 86_400, label: "7 days" },
  { value: 0, label: "No grace: revoke the old key now" },
];

export function RollDialog({ target, onClose }: { target: AccessKey | null; onClose: () => void }) {
  const qc = useQueryClient();
  const [grace, setGrace] = useState("86400");
  return (
    <ShownOnceDialog
      open={target !== null}
      onClose={onClose}
      form={{
        title: `Roll ${target?.name ?? "key"}?`,
        description:
          "A new key with the same name, permissions, rate limit, agents and expiry is minted. The old key keeps working for the grace period, then is revoked.",
        formId: "roll-key",
        submitLabel: "Roll key",
        pendingLabel: "Rolling…",
        errorTitle: "The key was not rolled",
      }}
      write={() =>
        request("POST /api/v1/organizations/[org_id]/access-keys/[key_id]/roll", {
          params: { key_id: target!.key_id },
          body: { grace_period_seconds: Number(grace) },
        })
      }
      onWritten={() => void qc.invalidateQueries({ queryKey: apiKey(KEYS) })}
      reset={() => setGrace("86400")}
      shown={(minted) => ({
        title: "Copy the new Access Key",
        description: "This is the only time the key is shown. Replace the old key with it before the grace ends.",
        value: minted.key,
        testId: "raw-key",
        copyLabel: "Copy key",
        after: (
          <p className="text-xs text-zinc-600">
            The old key <Mono>{target?.start}…</Mono>{" "}
            {Number(grace) === 0
              ? "is revoked."
              : `keeps working for ${GRACES.find((g) => String(g.value) === grace)?.label}.`}
          </p>
        ),
      })}
    >
      {(fieldError) => (
        <SelectField
          label="Grace period for the old key"
          error={fieldError.grace_period_seconds}
          value={grace}
          onValue={setGrace}
          options={GRACES.map((g) => [g.value, g.label] as const)}
        />
      )}
    </ShownOnceDialog>
  );
}

/** Expiry choices, from now: the select's values are days ("" never). */
export const EXPIRIES = [
  { value: "", label: "Never" },
  { value: "7", label: "In 7 days" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In 1 year" },
];
export const expiryFromDays = (days: string) => (days ? new Date(Date.now() + Number(days) * DAY).toISOString() : null);

/** The agents a key may reach: none ticked is every agent. */
export function AgentScopeField({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (ids: string[]) => void;
  error?: string;
}) {
  const agents = useAllAgents();
  const live = agents.data?.agents.filter((a) => !a.archived_at) ?? [];
  return (
    <CheckboxGroup
      legend="Agents"
      hint="None ticked: every agent of the organization, present and future."
      options={live.map((a) => [a.agent_id, a.name] as const)}
      value={value}
      onChange={onChange}
      error={error}
      scroll
    />
  );
}

/** Change a key after mint: name, rate limit, agents, expiry (the secret never changes). */
export function EditKeyDialog({ target, onClose }: { target: AccessKey | null; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState<string | null>(null);
  const [rate, setRate] = useState<string | null>(null);
  const [agents, setAgents] = useState<string[] | null>(null);
  const [expiry, setExpiry] = useState<string | null>(null);
  const close = () => {
    setName(null);
    setRate(null);
    setAgents(null);
    setExpiry(null);
    mutation.reset();
    onClose();
  };
  const mutation = useMutation({
    mutationFn: () => {
      const k = target!;
      const scope = agents ?? k.agent_ids ?? [];
      return request("PATCH /api/v1/organizations/[org_id]/access-keys/[key_id]", {
        params: { key_id: k.key_id },
        body: {
          ...(name !== null ? { name } : {}),
          ...(rate !== null ? { rate_limit_per_minute: rate.trim() ? Number(rate) : null } : {}),
          ...(agents !== null ? { agent_ids: scope.length ? scope : null } : {}),
          ...(expiry !== null && expiry !== "keep" ? { expires_at: expiryFromDays(expiry) } : {}),
        },
      });
    },
    onSuccess: (k) => {
      toast({ tone: "success", message: `Saved ${k.name}` });
      void qc.invalidateQueries({ queryKey: apiKey(KEYS) });
      close();
    },
  });
  const fields = mutation.error instanceof ConsoleApiError ? mutation.error.fields : {};
  const k = target;
  return (
    <FormDialog
      open={k !== null}
      onClose={close}
      title={`Change ${k?.name ?? "key"}`}
      description="The secret stays the same: integrations keep working."
      formId="edit-key"
      submitLabel="Save"
      pendingLabel="Saving…"
      pending={mutation.isPending}
      onSubmit={() => mutation.mutate()}
    >
      {k && (
        <>
          <TextField label="Name" error={fields.name} value={name ?? k.name} onValue={setName} />
          <TextField
            label="Rate limit (requests a minute, optional)"
            hint="Empty: the service default."
            error={fields.rate_limit_per_minute}
            type="number"
            inputMode="numeric"
            step="any"
            value={rate ?? (k.rate_limit_per_minute === null ? "" : String(k.rate_limit_per_minute))}
            onValue={setRate}
          />
          <SelectField
            label="Expiry"
            hint={`Now: ${k.expires_at ? formatDate(k.expires_at) : "never"}`}
            error={fields.expires_at}
            value={expiry ?? "keep"}
            onValue={setExpiry}
            options={[["keep", "Keep as it is"], ...EXPIRIES.map((x) => [x.value, x.label] as const)]}
          />
          <AgentScopeField value={agents ?? k.agent_ids ?? []} onChange={setAgents} error={fields.agent_ids} />
          {mutation.error && !Object.keys(fields).length && (
            <ErrorState error={mutation.error} title="The key was not saved" />
          )}
        </>
      )}
    </FormDialog>
  );
}
