"use client";
// Organization secrets (admins only): model and upstream credentials that agents name. A value goes
// in through a password field and never comes back: the list shows its last 4 characters at most.
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { FormDialog } from "@/components/console/form-dialog";
import { ListResult } from "@/components/console/list-result";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { ConsoleApiError } from "@/components/console/api";
import { apiKey, request, useApiEvery, useApiMutation } from "@/components/console/use-api";
import { relative } from "@/components/console/format";
import { actionsColumn, DataTable, type DataColumn } from "@/components/console/data-table";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { Mono, PageHeader } from "@/components/ui/misc";
import { useFormValues } from "@/components/ui/use-form";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import type { SecretRecord } from "@/lib/secrets/schemas";

const SECRETS = "GET /api/v1/organizations/[org_id]/secrets";

/** Adds a secret (`target` null) or replaces the value of `target`. */
function SecretDialog({ open, target, onClose }: { open: boolean; target: SecretRecord | null; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const form = useFormValues({ name: "", value: "" });
  const { name, value } = form.values;
  const save = useApiMutation("PUT /api/v1/organizations/[org_id]/secrets/[name]", {
    onSuccess: (s) => {
      void qc.invalidateQueries({ queryKey: apiKey(SECRETS) });
      toast({
        tone: "success",
        message: target ? `Replaced ${s.name}` : `Saved ${s.name}`,
        detail: target ? "Agents that name it use the new value from their next call." : undefined,
      });
      close();
    },
  });
  const close = () => {
    form.reset();
    save.reset();
    onClose();
  };
  const fields = save.error instanceof ConsoleApiError ? save.error.fields : {};
  return (
    <FormDialog
      open={open}
      onClose={close}
      title={target ? `Replace the value of ${target.name}` : "Add a secret"}
      description={
        target
          ? "The old value stops being used at the agents' next call. It cannot be shown or restored."
          : "The value is encrypted and never shown again, not even to admins: keep your own copy where you keep credentials."
      }
      formId="secret-form"
      submitLabel={target ? "Replace value" : "Save secret"}
      pendingLabel="Saving…"
      pending={save.isPending}
      onSubmit={() => save.mutate({ params: { name: target?.name ?? name.trim() }, body: { value } })}
      autoComplete="off"
    >
      {!target && (
        <TextField
          label="Name"
          hint="Letters, digits, _, - or ., for example openai-prod. Agents name it like this."
          autoFocus
          spellCheck={false}
          {...form.bind("name", fields)}
        />
      )}
      <TextField
        label="Value"
        hint="For example the API key of your model provider."
        type="password"
        autoComplete="new-password"
        {...form.bind("value", fields)}
        autoFocus={Boolean(target)}
        spellCheck={false}
      />
      {save.error && !Object.keys(fields).length && <ErrorState error={save.error} title="The secret was not saved" />}
    </FormDialog>
  );
}

function DeleteDialog({ target, onClose }: { target: SecretRecord | null; onClose: () => void }) {
  const inUse = Boolean(target?.used_by.length);
  return (
    <ConfirmWrite
      target={target}
      onClose={onClose}
      title={`Delete ${target?.name ?? "secret"}?`}
      description={
        inUse
          ? "Agents still name this secret: change them first, then delete it."
          : "The value is destroyed. This cannot be undone."
      }
      verb="delete"
      noun="secret"
      disabled={inUse}
      write={(s) => request("DELETE /api/v1/organizations/[org_id]/secrets/[name]", { params: { name: s.name } })}
      done={(_r, s) => ({ message: `Deleted ${s.name}` })}
      invalidates={() => [apiKey(SECRETS)]}
    >
      {target && inUse && <UsedBy secret={target} />}
    </ConfirmWrite>
  );
}

function UsedBy({ secret }: { secret: SecretRecord }) {
  if (!secret.used_by.length) return <span className="text-zinc-500">no agent</span>;
  return (
    <ul className="space-y-0.5">
      {secret.used_by.map((a) => (
        <li key={a.agent_id}>
          <Link href={`/agents/${a.agent_id}`} className="text-indigo-700 underline-offset-2 hover:underline">
            {a.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function SecretsView() {
  const [adding, setAdding] = useState(false);
  const [replacing, setReplacing] = useState<SecretRecord | null>(null);
  const [deleting, setDeleting] = useState<SecretRecord | null>(null);
  const secrets = useApiEvery(SECRETS, "secrets", {});
  const columns: DataColumn<SecretRecord>[] = [
    {
      header: "Name",
      className: "font-medium break-all",
      cell: (s) => (
        <>
          <Mono>{s.name}</Mono>
          <span className="mt-1 block text-xs font-normal text-zinc-600 sm:hidden">
            <Mono>{s.hint ? `••••${s.hint}` : "••••"}</Mono> · {relative(s.updated_at)}
          </span>
        </>
      ),
    },
    {
      header: "Value",
      from: "sm",
      className: "whitespace-nowrap",
      cell: (s) => <Mono>{s.hint ? `••••${s.hint}` : "••••"}</Mono>,
    },
    { header: "Used by", from: "md", cell: (s) => <UsedBy secret={s} /> },
    { header: "Updated", from: "sm", className: "whitespace-nowrap", cell: (s) => relative(s.updated_at) },
    actionsColumn(
      (s) => s.name,
      (s) => [
        { label: "Replace", onClick: () => setReplacing(s) },
        { label: "Delete", onClick: () => setDeleting(s) },
      ],
    ),
  ];
  return (
    <>
      <PageHeader
        title="Secrets"
        description="Credentials your agents send to their model or upstream: encrypted, write-only, for this organization's agents only."
        actions={<Button onClick={() => setAdding(true)}>Add secret</Button>}
      />
      <p className="mb-4 text-sm text-zinc-600">
        An agent names a secret in its runtime: <Mono className="whitespace-nowrap">api_key_secret</Mono> of an
        OpenAI-compatible runtime, or <Mono className="whitespace-nowrap">{"{{secrets.name}}"}</Mono> inside a header
        value, such as <Mono className="whitespace-nowrap">{"Bearer {{secrets.name}}"}</Mono>.
      </p>
      <ListResult
        query={secrets}
        rows={(d) => d.secrets}
        noun="secrets"
        empty={
          <EmptyState
            title="No secrets yet"
            action={<Button onClick={() => setAdding(true)}>Add your first secret</Button>}
          >
            Add your model provider&apos;s API key, then choose it in an agent&apos;s runtime settings.
          </EmptyState>
        }
      >
        {(rows) => <DataTable label="Secrets" columns={columns} rows={rows} rowKey={(s) => s.secret_id} />}
      </ListResult>
      <SecretDialog
        open={adding || Boolean(replacing)}
        target={replacing}
        onClose={() => {
          setAdding(false);
          setReplacing(null);
        }}
      />
      <DeleteDialog target={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
