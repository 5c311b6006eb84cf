"use client";
// Publishing the draft: the server's dry run first (what changes for live traffic, how many open
// sessions or runs keep their version), then the share of new traffic (100: at once; below: a canary
// rollout, optionally guarded by alert rules), a note, and Publish, which names the draft previewed
// so that a newer draft is refused (409 draft_conflict) rather than published unseen.
import { keepPreviousData, useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { FormDialog } from "@/components/console/form-dialog";
import { apiKey, request, useApi, useApiPreview } from "@/components/console/use-api";
import { CheckboxGroup } from "@/components/ui/field";
import { Skeleton, ErrorState } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import type { AgentRecord, PublishPreview } from "@/lib/agents/schemas";
import { VersionNoteField } from "../agent-form-fields";
import { parsePercent, PercentField } from "./percent-field";
import { ChangeBadge } from "./version-diff";

/** The kinds of alert rule a canary can be guarded by (lib/agents/versions.ts checks the same). */
const GUARD_KINDS = new Set(["error_rate", "latency_p95"]);

const PUBLISH = "POST /api/v1/organizations/[org_id]/agents/[agent_id]/publish";
const AGENT = "GET /api/v1/organizations/[org_id]/agents/[agent_id]";

/** An API error's title with its code, so that a 409 says which refusal it is. */
const failed = (title: string, e: unknown) => (e instanceof ConsoleApiError ? `${title} (${e.code})` : title);

export function PublishDialog({ agent, open, onClose }: { agent: AgentRecord; open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const draft = agent.draft_version;
  const [percentText, setPercentText] = useState("100");
  const [guards, setGuards] = useState<string[]>([]);
  const [note, setNote] = useState("");
  const percent = parsePercent(percentText);
  const canary = percent !== null && percent < 100;
  // What is previewed and then published: the draft read, at this share, with these guards.
  const target =
    open && draft !== null && percent !== null
      ? { version: draft, rollout_percent: percent, ...(canary && guards.length ? { guard_rule_ids: guards } : {}) }
      : null;
  // The dry run of the publish, under the agent's key: a write to the agent reads it again.
  const preview = useApiPreview(
    PUBLISH,
    { params: { agent_id: agent.agent_id }, body: { ...target!, dry_run: true } },
    { enabled: target !== null, placeholderData: keepPreviousData, retry: false },
  );
  const rules = useApi(
    "GET /api/v1/organizations/[org_id]/alert-rules",
    { query: { limit: 100 } },
    { enabled: open && canary },
  );
  const guardOptions = (rules.data?.alert_rules ?? [])
    .filter((r) => GUARD_KINDS.has(r.kind) && (r.agent_id === null || r.agent_id === agent.agent_id))
    .map((r) => [r.rule_id, `${r.name} (${r.kind === "error_rate" ? "error rate" : "latency p95"})`] as const);
  // Publish only what the preview on screen says: not while it is being read again.
  const ready = target !== null && preview.isSuccess && !preview.isFetching;

  const publish = useMutation({
    // Not a dry run: the answer is the agent.
    mutationFn: async () =>
      (await request(PUBLISH, {
        params: { agent_id: agent.agent_id },
        body: { ...target!, ...(note.trim() ? { note: note.trim() } : {}) },
      })) as AgentRecord,
    onSuccess: (saved) => {
      toast({
        tone: "success",
        message: saved.rollout
          ? `Version ${saved.rollout.version} is rolling out to ${saved.rollout.percent} %`
          : `Version ${saved.published_version} is live`,
        detail: "Open sessions and runs in progress keep their version.",
      });
      for (const queryKey of [
        apiKey(AGENT, { params: { agent_id: agent.agent_id } }),
        apiKey("GET /api/v1/organizations/[org_id]/agents"),
      ])
        void qc.invalidateQueries({ queryKey });
      close();
    },
  });
  const close = () => {
    publish.reset();
    setPercentText("100");
    setGuards([]);
    setNote("");
    onClose();
  };

  // A dry run answers the preview (the route answers the agent otherwise).
  const p = preview.data as PublishPreview | undefined;
  return (
    <FormDialog
      open={open}
      onClose={close}
      title={`Publish version ${draft ?? ""}`}
      description="What changes for live traffic, as the server previews it."
      formId="publish-version"
      submitLabel={canary ? `Start rollout at ${percent} %` : `Publish version ${draft ?? ""}`}
      pendingLabel="Publishing…"
      pending={publish.isPending}
      disabled={!ready}
      onSubmit={() => ready && publish.mutate()}
    >
      <section aria-label="Preview" aria-busy={preview.isFetching} className="space-y-2">
        {preview.isPending && target ? (
          <Skeleton className="h-16 w-full" />
        ) : preview.error ? (
          <ErrorState error={preview.error} title={failed("The draft cannot be published", preview.error)} />
        ) : p ? (
          <>
            <p
              role="status"
              data-testid="publish-summary"
              className="rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-950 ring-1 ring-indigo-200"
            >
              {p.summary}
            </p>
            <p className="text-xs font-medium text-zinc-600">
              {p.changes.length === 1 ? "1 change" : `${p.changes.length} changes`} from version {p.published_version}
            </p>
            <ul className="space-y-1 text-sm" aria-label="Changes">
              {p.changes.map((c) => (
                <li key={`${c.path}-${c.change}`} className="flex flex-wrap items-center gap-2">
                  <code className="font-mono text-xs [overflow-wrap:anywhere]">{c.path}</code>
                  <ChangeBadge change={c.change} />
                </li>
              ))}
            </ul>
            <Link
              href={`/agents/${agent.agent_id}?tab=versions&from=${p.published_version}&to=${p.version}`}
              onClick={close}
              className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline"
            >
              Review the changes side by side
            </Link>
          </>
        ) : null}
      </section>
      <PercentField
        label="Share of new sessions and runs (%)"
        value={percentText}
        onValue={setPercentText}
        hint="100 publishes at once. Below 100 starts a canary rollout: that share of new sessions and runs (the same end users each time) gets the new version; raise it, complete it or roll it back later."
      />
      {canary &&
        (guardOptions.length ? (
          <CheckboxGroup
            legend="Guard rules (optional)"
            hint="Roll the canary back automatically when one of these fires on its traffic."
            options={guardOptions}
            value={guards}
            onChange={setGuards}
            scroll
          />
        ) : (
          <p className="text-sm text-zinc-600">
            No error-rate or latency alert rule could guard this rollout (
            <Link href="/alerts" className="font-medium text-indigo-700 hover:underline">
              Alerts
            </Link>
            ).
          </p>
        ))}
      <VersionNoteField value={note} onValue={setNote} />
      {publish.error && (
        <ErrorState error={publish.error} title={failed("The version was not published", publish.error)} />
      )}
    </FormDialog>
  );
}
