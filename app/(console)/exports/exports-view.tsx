"use client";
// The organization's exports (docs/console.md, Exports): status and progress, live while one is
// being written, the redaction rules each applied, and Download (a fresh signed link each time).
// "New export" is prefilled from the URL: the lists and the user timeline link here with their
// kind and filters (components/console/export-button.tsx).
import { useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { FormDialog } from "@/components/console/form-dialog";
import { formatDate, formatNumber, relative } from "@/components/console/format";
import { ListResult } from "@/components/console/list-result";
import { useIsAdmin } from "@/components/console/me";
import { apiKey, request, useApiPage } from "@/components/console/use-api";
import type { ExportRecord as ExportItem } from "@/lib/exports/schemas";
import { usePagingState } from "@/components/console/url-params";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CheckboxGroup, Field, Select, TextField } from "@/components/ui/field";
import { Mono, PageHeader, ProgressBar } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { Table, TBody, Td, Tr } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { EXPORT_KINDS, type ExportKind } from "@/lib/exports/schemas";

const KIND_LABELS: Record<ExportKind, string> = {
  sessions: "Sessions with messages",
  runs: "Runs with items",
  deliveries: "Callback deliveries",
  audit: "Audit log",
  user_timeline: "One end user's timeline",
  evaluation_cases: "An evaluation's cases",
};

const FILTER_KEYS = ["agent_id", "status", "user_id", "from", "to", "action", "evaluation_id"] as const;
type FilterKey = (typeof FILTER_KEYS)[number];
const FILTER_LABELS: Record<FilterKey, string> = {
  agent_id: "Agent id",
  status: "Status",
  user_id: "End-user id",
  from: "From (ISO 8601)",
  to: "To (ISO 8601)",
  action: "Audit action",
  evaluation_id: "Evaluation id",
};

/** The filters a kind takes beyond the common ones: the audit action, the evaluation. */
const OWN_FILTER: Partial<Record<FilterKey, ExportKind>> = { action: "audit", evaluation_id: "evaluation_cases" };

const isKind = (k: string | null): k is ExportKind => (EXPORT_KINDS as readonly string[]).includes(k ?? "");

function filterSummary(e: ExportItem): string {
  const parts = Object.entries(e.filters).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(", ") : "everything";
}

function Progress({ e }: { e: ExportItem }) {
  if (e.status === "succeeded") return <span className="text-sm">{formatNumber(e.rows_written)} rows</span>;
  if (e.status !== "running") return e.error_code ? <Mono>{e.error_code}</Mono> : <span className="text-sm">—</span>;
  const total = e.rows_estimated ?? 0;
  const percent = total > 0 ? (100 * e.rows_written) / total : 0;
  return (
    <div className="min-w-[7rem] space-y-1">
      <ProgressBar percent={percent} label={`Export ${e.export_id} progress`} />
      <span className="text-xs text-zinc-600">
        {formatNumber(e.rows_written)} / {total ? `~${formatNumber(total)}` : "?"} rows
      </span>
    </div>
  );
}

/** What an export can redact besides named fields. */
const REDACT = [
  ["emails", "Email addresses"],
  ["phones", "Phone numbers"],
  ["cards", "Payment card numbers (Luhn-checked)"],
] as const;
type RedactKind = (typeof REDACT)[number][0];

function NewExportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const sp = useSearchParams();
  const admin = useIsAdmin();
  const qc = useQueryClient();
  const toast = useToast();
  const [kind, setKind] = useState<ExportKind>(isKind(sp.get("kind")) ? (sp.get("kind") as ExportKind) : "sessions");
  const [format, setFormat] = useState<"csv" | "jsonl">(sp.get("format") === "jsonl" ? "jsonl" : "csv");
  const [filters, setFilters] = useState<Record<FilterKey, string>>(
    () => Object.fromEntries(FILTER_KEYS.map((k) => [k, sp.get(k) ?? ""])) as Record<FilterKey, string>,
  );
  const [redact, setRedact] = useState<RedactKind[]>([]);
  const [fields, setFields] = useState("");
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const kinds = EXPORT_KINDS.filter((k) => k !== "audit" || admin);

  const submit = async () => {
    setPending(true);
    setErrors({});
    try {
      const chosen = Object.fromEntries(
        Object.entries(filters).filter(([k, v]) => v.trim() && (OWN_FILTER[k as FilterKey] ?? kind) === kind),
      );
      const made = await request("POST /api/v1/organizations/[org_id]/exports", {
        body: {
          kind,
          format,
          filters: chosen,
          redact: {
            emails: redact.includes("emails"),
            phones: redact.includes("phones"),
            cards: redact.includes("cards"),
            fields: fields
              .split(",")
              .map((f) => f.trim())
              .filter(Boolean),
          },
        },
      });
      toast({ tone: "success", message: "Export started", detail: made.export_id });
      void qc.invalidateQueries({ queryKey: apiKey("GET /api/v1/organizations/[org_id]/exports") });
      onClose();
    } catch (err) {
      const fieldErrors = err instanceof ConsoleApiError ? err.fields : {};
      setErrors({ ...fieldErrors, form: err instanceof Error ? err.message : String(err) });
    } finally {
      setPending(false);
    }
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="New export"
      description="A CSV or JSON Lines file of the records, written in the background. Redaction replaces what you tick with a marker such as [redacted:email]."
      formId="new-export"
      submitLabel="Start export"
      pendingLabel="Starting…"
      pending={pending}
      onSubmit={() => void submit()}
    >
      {errors.form && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200">
          {errors.form}
        </p>
      )}
      <Field label="What">
        {({ id }) => (
          <Select id={id} value={kind} onChange={(e) => setKind(e.target.value as ExportKind)}>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Format">
        {({ id }) => (
          <Select id={id} value={format} onChange={(e) => setFormat(e.target.value as "csv" | "jsonl")}>
            <option value="csv">CSV</option>
            <option value="jsonl">JSON Lines</option>
          </Select>
        )}
      </Field>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-medium text-zinc-800">Filters</legend>
        {FILTER_KEYS.filter((k) => (OWN_FILTER[k] ?? kind) === kind).map((k) => (
          <TextField
            key={k}
            label={FILTER_LABELS[k] + (k === "user_id" && kind === "user_timeline" ? " (required)" : "")}
            value={filters[k]}
            error={errors[`filters.${k}`]}
            onChange={(e) => setFilters({ ...filters, [k]: e.target.value })}
          />
        ))}
      </fieldset>
      <CheckboxGroup legend="Redact" options={REDACT} value={redact} onChange={setRedact} />
      <TextField
        label="Fields to redact"
        hint="Names of metadata or input fields, separated by commas (at any depth), for example ssn, date_of_birth."
        value={fields}
        error={Object.entries(errors).find(([k]) => k.startsWith("redact.fields"))?.[1]}
        onValue={setFields}
      />
    </FormDialog>
  );
}

function DownloadButton({ e }: { e: ExportItem }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  if (e.status !== "succeeded") return null;
  if (!e.download_url) return <span className="text-xs text-zinc-600">expired</span>;
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={busy}
      aria-label={`Download ${e.file_name}`}
      onClick={async () => {
        setBusy(true);
        try {
          // A fresh link: the one in the list may be older than its 15 minutes.
          const fresh = await request("GET /api/v1/organizations/[org_id]/exports/[export_id]", {
            params: { export_id: e.export_id },
          });
          if (fresh.download_url) window.location.assign(fresh.download_url);
        } catch (err) {
          toast({ tone: "error", message: "The download could not start", detail: (err as Error).message });
        } finally {
          setBusy(false);
        }
      }}
    >
      Download
    </Button>
  );
}

export function ExportsView() {
  const sp = useSearchParams();
  const [creating, setCreating] = useState(isKind(sp.get("kind")));
  const paging = usePagingState(20);
  const list = useApiPage(
    "GET /api/v1/organizations/[org_id]/exports",
    { query: { limit: paging.limit, cursor: paging.state.cursor } },
    // Polled every 2 s while one of them is still being written.
    {
      refetchInterval: (q) =>
        q.state.data?.exports.some((e) => e.status === "queued" || e.status === "running") ? 2_000 : false,
    },
  );
  return (
    <>
      <PageHeader
        title="Exports"
        description="Sessions, runs, deliveries and the audit log as files, with optional redaction. Files are kept 7 days; download links last 15 minutes."
        actions={<Button onClick={() => setCreating(true)}>New export</Button>}
      />
      <ListResult
        query={list}
        rows={(d) => d.exports}
        noun="exports"
        paging={paging}
        empty={
          <EmptyState title="No exports yet" action={<Button onClick={() => setCreating(true)}>New export</Button>}>
            Export a list from its page (Export), or start one here.
          </EmptyState>
        }
      >
        {(rows) => (
          <Table
            label="Exports"
            columns={[
              "Export",
              ["Filters", "md"],
              ["Redaction", "sm"],
              "Status",
              ["Progress", "sm"],
              ["Requested", "lg"],
              "",
            ]}
          >
            <TBody>
              {rows.map((e) => (
                <Tr key={e.export_id}>
                  <Td className="min-w-[9rem]">
                    <div className="font-medium">{KIND_LABELS[e.kind]}</div>
                    <Mono className="text-zinc-600">{e.format === "csv" ? "CSV" : "JSON Lines"}</Mono>
                  </Td>
                  <Td className="hidden max-w-[16rem] text-sm [overflow-wrap:anywhere] md:table-cell">
                    {filterSummary(e)}
                  </Td>
                  <Td className="hidden sm:table-cell">
                    <div className="flex flex-wrap gap-1">
                      {e.rules_applied.length ? e.rules_applied.map((r) => <Badge key={r}>{r}</Badge>) : "none"}
                    </div>
                  </Td>
                  <Td>
                    <StatusBadge status={e.status} />
                    {/* On a phone the button sits under the status: no column of its own. */}
                    <div className="mt-2 sm:hidden">
                      <DownloadButton e={e} />
                    </div>
                  </Td>
                  <Td className="hidden sm:table-cell">
                    <Progress e={e} />
                  </Td>
                  <Td className="hidden whitespace-nowrap lg:table-cell">
                    <time dateTime={e.created_at} title={formatDate(e.created_at)}>
                      {relative(e.created_at)}
                    </time>
                    <div className="text-xs text-zinc-600">{e.requested_by ?? "—"}</div>
                  </Td>
                  <Td className="hidden text-right sm:table-cell">
                    <DownloadButton e={e} />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </ListResult>
      <NewExportDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
