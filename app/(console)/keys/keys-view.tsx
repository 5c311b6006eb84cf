"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import Link from "next/link";
import { ListResult } from "@/components/console/list-result";
import { apiKey, request, useApiEvery } from "@/components/console/use-api";
import type { AccessKeyRecord as AccessKey, Permission } from "@/lib/keys/schemas";
import { formatDate, relative } from "@/components/console/format";
import { useIsAdmin } from "@/components/console/me";
import { BulkBar, useBulkSelection } from "@/components/console/bulk-actions";
import { actionsColumn, DataTable, type DataColumn } from "@/components/console/data-table";
import { ShownOnceDialog } from "@/components/console/shown-once-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CheckboxGroup, SelectField, TextField } from "@/components/ui/field";
import { Mono, PageHeader } from "@/components/ui/misc";
import { useFormValues } from "@/components/ui/use-form";
import { EmptyState } from "@/components/ui/states";
import {
  AgentScopeField,
  EditKeyDialog,
  EXPIRIES,
  expiryFromDays,
  expiryText,
  KeyStateBadge,
  keyState,
  RevokeDialog,
  RollDialog,
  RollLinks,
} from "./key-parts";
import { useAllAgents } from "@/components/console/all-agents";

/** 600, 12,000, and from 100,000 "250K", "1M": a long limit kept the keys table wider than 1280 px. */
const perMinute = (n: number) =>
  `${n >= 100_000 ? new Intl.NumberFormat("en", { notation: "compact" }).format(n) : n.toLocaleString("en")}/min`;

/** "600/min", "none" (a default of 0), with "(default)" when the key has no limit of its own. */
function rateLimitText(k: AccessKey, defaultLimit: number) {
  if (k.rate_limit_per_minute !== null) return perMinute(k.rate_limit_per_minute);
  return defaultLimit > 0 ? `${perMinute(defaultLimit)} (default)` : "none (default)";
}

const PERMISSIONS: { value: Permission; label: string }[] = [
  { value: "agents:invoke", label: "agents:invoke: trigger agents, upload files, read and control runs" },
];

function MintDialog({ open, onClose, defaultLimit }: { open: boolean; onClose: () => void; defaultLimit?: number }) {
  const qc = useQueryClient();
  const form = useFormValues({ name: "", rate_limit_per_minute: "", expires_at: "" });
  const { name, rate_limit_per_minute: rateLimit, expires_at: expiry } = form.values;
  const [permissions, setPermissions] = useState<Permission[]>(["agents:invoke"]);
  const [agentIds, setAgentIds] = useState<string[]>([]);
  return (
    <ShownOnceDialog
      open={open}
      onClose={onClose}
      form={{
        title: "Mint an Access Key",
        description: "One key per integration, named after it: the name shows in the audit log.",
        formId: "mint-key",
        submitLabel: "Mint key",
        pendingLabel: "Minting…",
        errorTitle: "The key was not minted",
      }}
      write={() =>
        request("POST /api/v1/organizations/[org_id]/access-keys", {
          body: {
            name,
            permissions,
            // Empty: the service default. Anything else goes as typed; the server says what is wrong with it.
            ...(rateLimit.trim() ? { rate_limit_per_minute: Number(rateLimit) } : {}),
            ...(expiry ? { expires_at: expiryFromDays(expiry) } : {}),
            ...(agentIds.length ? { agent_ids: agentIds } : {}),
          },
        })
      }
      onWritten={() =>
        void qc.invalidateQueries({ queryKey: apiKey("GET /api/v1/organizations/[org_id]/access-keys") })
      }
      reset={() => {
        form.reset();
        setAgentIds([]);
        setPermissions(["agents:invoke"]);
      }}
      shown={(minted) => ({
        title: "Copy your new Access Key",
        description: "This is the only time the key is shown. Store it in your secret manager now.",
        value: minted.key,
        testId: "raw-key",
        copyLabel: "Copy key",
        before: (
          <div className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-300" role="note">
            We keep only a hash of the key. If you lose it, revoke it and mint a new one.
          </div>
        ),
        after: (
          <p className="text-xs text-zinc-600">
            Use it as <Mono>Authorization: Bearer {minted.start}…</Mono>; never log this header.
          </p>
        ),
      })}
    >
      {(fieldError) => (
        <>
          <TextField
            label="Name"
            hint="For example billing-backend or zapier-prod."
            autoFocus
            {...form.bind("name", fieldError)}
          />
          <TextField
            label="Rate limit (requests a minute, optional)"
            hint={
              defaultLimit === undefined
                ? "Empty: the service default."
                : defaultLimit > 0
                  ? `Empty: the service default, ${defaultLimit.toLocaleString("en")} a minute.`
                  : "Empty: the service default, no limit."
            }
            // No min or step: the browser's own bubble would answer 0 or 1.5 before the form's inline error.
            type="number"
            inputMode="numeric"
            step="any"
            {...form.bind("rate_limit_per_minute", fieldError)}
          />
          <CheckboxGroup
            legend="Permissions"
            options={PERMISSIONS.map((p) => [p.value, p.label] as const)}
            value={permissions}
            onChange={setPermissions}
          />
          {permissions.length === 0 && (
            <div className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-300" role="note">
              <p className="font-medium">This key has no permission at all.</p>
              <p>
                Every request with it will be refused (403). Tick a permission, or confirm that this is what you want.
              </p>
              <label className="mt-2 flex items-start gap-2">
                <input type="checkbox" required className="mt-0.5 size-4 accent-amber-600" />
                <span>Mint it anyway, with no permission</span>
              </label>
            </div>
          )}
          <SelectField
            label="Expiry"
            {...form.bind("expires_at", fieldError)}
            options={EXPIRIES.map((x) => [x.value, x.label] as const)}
          />
          <AgentScopeField value={agentIds} onChange={setAgentIds} error={fieldError.agent_ids} />
        </>
      )}
    </ShownOnceDialog>
  );
}

/** The agents a key may reach, by name ("Every agent" when it names none). */
function scopeText(k: AccessKey, names: Map<string, string>) {
  if (!k.agent_ids?.length) return "Every agent";
  return k.agent_ids.map((id) => names.get(id) ?? id).join(", ");
}

type KeyRow = AccessKey & { rate: string; scope: string };

function keyColumns(p: {
  admin: boolean;
  setRolling: (k: AccessKey) => void;
  setEditing: (k: AccessKey) => void;
  setRevoking: (k: AccessKey) => void;
}): DataColumn<KeyRow>[] {
  return [
    {
      header: "Name",
      // Wraps anywhere on a phone (the row's checkbox and actions need the room), never below 10rem wider.
      className: "min-w-[6rem] [overflow-wrap:anywhere] sm:min-w-[10rem]",
      cell: (k) => (
        <>
          <Link href={`/keys/${k.key_id}`} className="font-medium text-indigo-700 underline">
            {k.name}
          </Link>
          {/* The key's start under its name (no column of its own: the agents' column has the room). */}
          <Mono className="hidden text-xs text-zinc-600 sm:block">{k.start}…</Mono>
          <RollLinks k={k} />
          {/* On a phone the columns below are hidden: the name carries the scope and the expiry. */}
          <p className="mt-0.5 text-xs text-zinc-600 md:hidden">
            <span className="sr-only">Agents: </span>
            {k.scope}
            {!k.revoked_at && <span className="sm:hidden"> · {expiryText(k.expires_at)}</span>}
          </p>
        </>
      ),
    },
    {
      header: "Permissions",
      from: "md",
      cell: (k) => (
        <div className="flex flex-wrap gap-1">
          {k.permissions.length ? k.permissions.map((x) => <Badge key={x}>{x}</Badge>) : "none"}
        </div>
      ),
    },
    { header: "Agents", from: "md", className: "min-w-[7rem] [overflow-wrap:anywhere]", cell: (k) => k.scope },
    // Wraps ("1,000,000/min" over "(default)"): with the checkbox column the row fits 1280 px.
    { header: "Rate limit", from: "lg", cell: (k) => k.rate },
    {
      header: "Expires",
      from: "sm",
      className: "whitespace-nowrap",
      cell: (k) => <span title={formatDate(k.expires_at)}>{k.revoked_at ? "—" : expiryText(k.expires_at)}</span>,
    },
    {
      header: "Last used",
      from: "sm",
      className: "whitespace-nowrap",
      cell: (k) => (k.last_used_at ? relative(k.last_used_at) : "never"),
    },
    { header: "Status", cell: (k) => <KeyStateBadge k={k} /> },
    {
      ...actionsColumn<KeyRow>(
        (k) => k.name,
        (k) => [
          // An expired key is over: never rolled (docs/api.md, Access Keys).
          keyState(k) === "active" && { label: "Roll", onClick: () => p.setRolling(k) },
          !k.revoked_at && { label: "Change", onClick: () => p.setEditing(k) },
          !k.revoked_at && { label: "Revoke", onClick: () => p.setRevoking(k) },
        ],
      ),
      hidden: !p.admin,
    },
  ];
}

export function KeysView() {
  const admin = useIsAdmin();
  const [minting, setMinting] = useState(false);
  const [revoking, setRevoking] = useState<AccessKey | null>(null);
  const [rolling, setRolling] = useState<AccessKey | null>(null);
  const [editing, setEditing] = useState<AccessKey | null>(null);
  const keys = useApiEvery("GET /api/v1/organizations/[org_id]/access-keys", "access_keys", {});
  const agents = useAllAgents({ staleTime: 60_000 });
  const names = new Map((agents.data?.agents ?? []).map((a) => [a.agent_id, a.name]));
  const selection = useBulkSelection("keys");
  return (
    <>
      <PageHeader
        title="Access Keys"
        description="Keys let your backend trigger agents over HTTP. Each key belongs to this organization."
        actions={admin && <Button onClick={() => setMinting(true)}>Mint key</Button>}
      />
      {!admin && (
        <p className="mb-4 rounded-md bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
          You have read access. Admins mint, change, roll and revoke keys.
        </p>
      )}
      {admin && <BulkBar target="access_key" selection={selection} />}
      <ListResult
        query={keys}
        rows={(d) =>
          d.access_keys.map((k) => ({
            ...k,
            rate: rateLimitText(k, d.default_rate_limit_per_minute),
            scope: scopeText(k, names),
          }))
        }
        noun="keys"
        empty={
          <EmptyState
            title="No Access Keys yet"
            action={admin && <Button onClick={() => setMinting(true)}>Mint your first key</Button>}
          >
            Mint a key for each integration, then send triggers with <Mono>Authorization: Bearer ak_…</Mono>.
          </EmptyState>
        }
      >
        {(rows) => (
          <DataTable
            label="Access Keys"
            columns={keyColumns({ admin, setRolling, setEditing, setRevoking })}
            rows={rows}
            rowKey={(k) => k.key_id}
            // Admins check keys to revoke many at once (the bulk bar above); support sees no boxes.
            {...(admin ? { selected: selection.ids, onSelectedChange: selection.replace } : {})}
            rowLabel={(k) => `Select key ${k.name}`}
          />
        )}
      </ListResult>
      {admin && (
        <MintDialog
          open={minting}
          onClose={() => setMinting(false)}
          defaultLimit={keys.data?.default_rate_limit_per_minute}
        />
      )}
      {admin && <RevokeDialog target={revoking} onClose={() => setRevoking(null)} />}
      {admin && <RollDialog target={rolling} onClose={() => setRolling(null)} />}
      {admin && <EditKeyDialog target={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
