"use client";
// How long the organization's history is kept (docs/console.md, Retention): the setting that
// applies and where it comes from, the oldest record kept of each kind, and for admins a form whose
// confirm step says what the next sweep will delete. Support members see it read-only.
import { useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { FormDialog } from "@/components/console/form-dialog";
import { formatDate, formatNumber } from "@/components/console/format";
import { useIsAdmin } from "@/components/console/me";
import { apiKey, request, useApi } from "@/components/console/use-api";
import { Button } from "@/components/ui/button";
import { Field, Select, TextField } from "@/components/ui/field";
import { Card, Details, PageHeader } from "@/components/ui/misc";
import { ErrorState, SkeletonRows } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { PREVIEW_LIMIT, SetRetentionBody, type RetentionSetting as Retention } from "@/lib/retention/schemas";

const RETENTION = "GET /api/v1/organizations/[org_id]/retention";

const KINDS: [keyof Retention["oldest"], string][] = [
  ["sessions", "Sessions (by last message)"],
  ["runs", "Runs"],
  ["uploads", "Uploads"],
  ["deliveries", "Callback deliveries"],
  ["audit", "Audit log"],
  ["evaluations", "Finished evaluations"],
];

const days = (n: number) => (n === 0 ? "Forever" : n === 1 ? "1 day" : `${formatNumber(n)} days`);
const count = (n: number) => (n > PREVIEW_LIMIT ? `more than ${formatNumber(PREVIEW_LIMIT)}` : formatNumber(n));

type Mode = "default" | "forever" | "days";
/** The setting a choice stands for (null: follow the default), or the field's error. */
function choice(mode: Mode, text: string): { value: number | null } | { error: string } {
  if (mode === "default") return { value: null };
  if (mode === "forever") return { value: 0 };
  const parsed = SetRetentionBody.safeParse({ retention_days: text.trim() === "" ? NaN : Number(text) });
  if (!parsed.success || parsed.data.retention_days === 0) return { error: "Enter a number of days from 1 to 3650." };
  return { value: parsed.data.retention_days };
}

/** The confirm step: what the next sweep deletes with the new setting, counted by the server. */
function ConfirmChange({
  target,
  current,
  onClose,
}: {
  target: { value: number | null } | null;
  current: Retention;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const toast = useToast();
  const effective = target ? (target.value ?? current.default_retention_days) : null;
  // What a retention of `effective` days would have the next sweep delete; not asked for forever (0).
  const preview = useApi(
    RETENTION,
    { query: { preview_days: effective ?? undefined } },
    { enabled: effective !== null && effective > 0 },
  );
  return (
    <ConfirmWrite
      target={target}
      onClose={onClose}
      title={target?.value === null ? "Follow the server default?" : `Keep ${days(effective ?? 0).toLowerCase()}?`}
      description={
        effective === 0
          ? "History is kept forever: the sweep deletes nothing."
          : "The next sweep (within 10 minutes) deletes what is older, with its stored files. This cannot be undone."
      }
      verb="save"
      noun="retention"
      write={(t) => request("PATCH /api/v1/organizations/[org_id]/retention", { body: { retention_days: t.value } })}
      onDone={(saved) => {
        qc.setQueryData(apiKey(RETENTION), saved);
        void qc.invalidateQueries({ queryKey: apiKey(RETENTION) });
        toast({ tone: "success", message: `Retention: ${days(saved.effective_days).toLowerCase()}` });
      }}
    >
      {effective !== null && effective > 0 && <PreviewCounts preview={preview} />}
    </ConfirmWrite>
  );
}

function PreviewCounts({ preview }: { preview: UseQueryResult<Retention, Error> }) {
  if (preview.isPending) return <SkeletonRows rows={2} label="Counting what the sweep would delete" />;
  if (preview.error) return <ErrorState error={preview.error} title="What the sweep deletes could not be counted" />;
  const p = preview.data.preview;
  if (!p) return null;
  const total = Object.values(p.counts).reduce((a, b) => a + b, 0);
  return (
    <div className="space-y-2 text-sm" data-testid="retention-preview">
      <p>
        {total === 0 ? "Nothing is older than " : "Records older than "}
        <strong>{formatDate(p.cutoff)}</strong>
        {total === 0 ? ": the sweep deletes nothing now." : " that the next sweep deletes:"}
      </p>
      {total > 0 && (
        <ul className="space-y-0.5">
          {KINDS.filter(([k]) => p.counts[k] > 0).map(([k, label]) => (
            <li key={k} className="flex justify-between gap-4">
              <span>{label}</span>
              <strong className="tabular-nums">{count(p.counts[k])}</strong>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ChangeDialog({
  open,
  current,
  onClose,
  onChosen,
}: {
  open: boolean;
  current: Retention;
  onClose: () => void;
  onChosen: (value: number | null) => void;
}) {
  const initialMode: Mode =
    current.retention_days === null ? "default" : current.retention_days === 0 ? "forever" : "days";
  const [mode, setMode] = useState<Mode>(initialMode);
  const [text, setText] = useState(current.retention_days ? String(current.retention_days) : "90");
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setMode(initialMode);
    setError(undefined);
    onClose();
  };
  return (
    <FormDialog
      open={open}
      onClose={close}
      title="Change retention"
      description="History older than this is deleted by the worker: sessions with their messages, finished runs with their items and files, uploads, settled callback deliveries, audit rows and finished evaluations with their cases."
      formId="retention-form"
      submitLabel="Continue"
      pendingLabel="Continue"
      pending={false}
      onSubmit={() => {
        const c = choice(mode, text);
        if ("error" in c) return setError(c.error);
        setError(undefined);
        onChosen(c.value);
      }}
    >
      <Field label="Keep history">
        {({ id, describedBy }) => (
          <Select id={id} aria-describedby={describedBy} value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
            <option value="default">Server default ({days(current.default_retention_days).toLowerCase()})</option>
            <option value="forever">Forever</option>
            <option value="days">A number of days</option>
          </Select>
        )}
      </Field>
      {mode === "days" && (
        <TextField
          label="Days"
          inputMode="numeric"
          hint="1 to 3650."
          error={error}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setError(undefined);
          }}
          autoFocus
        />
      )}
    </FormDialog>
  );
}

export function RetentionView() {
  const admin = useIsAdmin();
  const retention = useApi(RETENTION, {});
  const [changing, setChanging] = useState(false);
  const [confirming, setConfirming] = useState<{ value: number | null } | null>(null);
  const data = retention.data;
  return (
    <>
      <PageHeader
        title="Retention"
        description="How long this organization's history is kept. The worker deletes what is older every 10 minutes."
        actions={admin && data && <Button onClick={() => setChanging(true)}>Change retention</Button>}
      />
      {!admin && (
        <p className="mb-4 rounded-md bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
          You have read access. Admins change the retention.
        </p>
      )}
      {retention.isPending ? (
        <SkeletonRows label="Loading retention" />
      ) : retention.error ? (
        <ErrorState error={retention.error} title="Retention could not be loaded" />
      ) : (
        <div className="space-y-6">
          <Card title="Setting">
            <Details
              items={[
                ["Kept", <span data-testid="retention-effective">{days(retention.data.effective_days)}</span>],
                [
                  "Set by",
                  <span data-testid="retention-source">
                    {retention.data.retention_days === null ? "Server default" : "This organization"}
                  </span>,
                ],
                ["Server default", days(retention.data.default_retention_days)],
              ]}
            />
          </Card>
          <Card title="Oldest record kept">
            <Details
              items={KINDS.map(([k, label]) => [
                label,
                retention.data.oldest[k] ? formatDate(retention.data.oldest[k]) : "None",
              ])}
            />
          </Card>
        </div>
      )}
      {admin && data && (
        <>
          <ChangeDialog
            key={String(data.retention_days)}
            open={changing}
            current={data}
            onClose={() => setChanging(false)}
            onChosen={(value) => {
              setChanging(false);
              setConfirming({ value });
            }}
          />
          <ConfirmChange target={confirming} current={data} onClose={() => setConfirming(null)} />
        </>
      )}
    </>
  );
}
