"use client";
// Create or edit an agent: name, kind, runtime (the fields of its type) and, for workflow agents,
// the definition in a JSON editor. The server's zod schemas decide what is valid; their field
// errors (`runtime.base_url`, `workflow.steps.2.when`) are shown at the input or the JSON line.
// The state and the body it builds are in agent-form-state.ts, the inputs in agent-form-fields.tsx
// (name, kind) and runtime-fields.tsx (the runtime). An edit writes a draft version, never served
// until published (docs/console.md, Versions): it names the version the form was loaded from, so an
// edit made meanwhile by someone else is refused (409 draft_conflict) rather than overwritten.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { JsonEditor } from "@/components/console/json-editor";
import { apiKey, request, type Call } from "@/components/console/use-api";
import { Button, buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/misc";
import { ErrorState } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import type { AgentRecord } from "@/lib/agents/schemas";
import { BasicsCard, textField, VersionNoteField } from "./agent-form-fields";
import { headOf } from "./head";
import { RuntimeCard } from "./runtime-fields";
import {
  build,
  initialState,
  placeErrors,
  STARTER_WORKFLOW,
  type ClientErrors,
  type FormState,
} from "./agent-form-state";

const CREATE = "POST /api/v1/organizations/[org_id]/agents";
const UPDATE = "PATCH /api/v1/organizations/[org_id]/agents/[agent_id]";
const AGENTS = "GET /api/v1/organizations/[org_id]/agents";
const AGENT = "GET /api/v1/organizations/[org_id]/agents/[agent_id]";
const VERSIONS = "GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions";

const isConflict = (e: unknown): e is ConsoleApiError => e instanceof ConsoleApiError && e.code === "draft_conflict";

/** Why the form's version is not the agent's head any more, with the way to reload it. */
function Stale({
  error,
  agent,
  base,
  onReload,
}: {
  error: unknown;
  agent: AgentRecord;
  base: number;
  onReload: () => void;
}) {
  const conflict = isConflict(error) ? error.details : undefined;
  if (!conflict && headOf(agent) === base) return null;
  const newer = conflict ? conflict.head_version : headOf(agent);
  return (
    <div role="alert" className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-950 ring-1 ring-amber-300">
      <p>
        {conflict
          ? `Someone else changed this agent: version ${String(newer)} is newer. Reload to see it.`
          : `This form shows version ${base}, but edits now start from version ${String(newer)}. Reload to see it.`}
      </p>
      <Button size="sm" variant="secondary" className="mt-2" onClick={onReload}>
        Reload
      </Button>
    </div>
  );
}

export function AgentForm({
  agent,
  base: loadedBase,
  onReload,
}: {
  /** The agent to edit, with the configuration of the version the form loads (its draft, if any). */
  agent?: AgentRecord;
  /** That version: the edit's `base_version`. */
  base?: number;
  onReload?: () => void;
}) {
  const router = useRouter();
  const toast = useToast();
  const qc = useQueryClient();
  const [s, setS] = useState<FormState>(() => initialState(agent));
  const [clientErrors, setClientErrors] = useState<ClientErrors>({});
  const [base, setBase] = useState(loadedBase);
  const [note, setNote] = useState("");
  const [savedAs, setSavedAs] = useState<string | null>(null);
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => {
    setS((prev) => ({ ...prev, [k]: v }));
    if (k === "headers" || k === "workflow") setClientErrors((e) => ({ ...e, [k]: undefined }));
  };

  const save = useMutation({
    mutationFn: ({ body, publish }: { body: Record<string, unknown>; publish: boolean }) =>
      agent
        ? request(UPDATE, {
            params: { agent_id: agent.agent_id },
            // The fields as typed: the server's schema judges them (its field errors go to the inputs).
            body: {
              ...body,
              base_version: base,
              ...(publish ? { publish: true } : {}),
              ...(note.trim() ? { note: note.trim() } : {}),
            } as Call<typeof UPDATE>["body"],
          })
        : request(CREATE, { body: body as Call<typeof CREATE>["body"] }),
    onSuccess: (saved, { publish }) => {
      void qc.invalidateQueries({ queryKey: apiKey(AGENTS) });
      qc.setQueryData(apiKey(AGENT, { params: { agent_id: saved.agent_id } }), saved);
      if (agent) {
        void qc.invalidateQueries({ queryKey: apiKey(VERSIONS, { params: { agent_id: saved.agent_id } }) });
        const newDraft = saved.draft_version !== null && saved.draft_version !== base;
        // The toast is brief; the line under the buttons stays and says what it means for triggers.
        toast({
          tone: "success",
          message: publish
            ? `Version ${saved.published_version} is live`
            : newDraft
              ? `Draft version ${saved.draft_version} saved`
              : "Saved",
        });
        setSavedAs(
          publish
            ? `Published version ${saved.published_version}: new sessions and runs use it.`
            : newDraft
              ? `Saved as draft version ${saved.draft_version}: not live until published.`
              : "Changes saved.",
        );
        setBase(headOf(saved));
        setNote("");
      } else {
        toast({ tone: "success", message: `Created ${saved.name}`, detail: "Try it in the test console below." });
        router.push(`/agents/${saved.agent_id}`);
      }
    },
    onError: (e) => {
      // The agent moved on: the banner and the versions show where it is now.
      if (agent && e instanceof ConsoleApiError && e.status === 409)
        void qc.invalidateQueries({ queryKey: apiKey(AGENT, { params: { agent_id: agent.agent_id } }) });
    },
  });

  const { apiError, fields, rt, workflowErrors, headerErrors, callbackError, unplaced, fieldCount } = placeErrors(
    s,
    save.error,
    clientErrors,
  );

  const submit = (publish = false) => {
    const built = build(s, agent);
    setSavedAs(null);
    if (!built.ok) {
      setClientErrors(built.errors);
      save.reset();
      return;
    }
    setClientErrors({});
    save.mutate({ body: built.body, publish });
  };

  const text = textField(s, set);

  return (
    <form
      noValidate
      className="space-y-6"
      aria-label={agent ? "Agent settings" : "New agent"}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <BasicsCard agent={agent} s={s} set={set} text={text} kindError={fields.kind} nameError={fields.name} />

      <RuntimeCard s={s} set={set} text={text} rt={rt} runtimeError={fields.runtime} headerErrors={headerErrors} />

      {s.kind === "workflow" && (
        <Card
          title="Workflow definition"
          actions={
            !agent && (
              <Button variant="secondary" size="sm" onClick={() => set("workflow", STARTER_WORKFLOW)}>
                Reset to the example
              </Button>
            )
          }
        >
          <JsonEditor
            label="Definition (JSON)"
            value={s.workflow}
            onChange={(v) => set("workflow", v)}
            errors={workflowErrors}
            rows={22}
            hint={
              <>
                inputs, items, steps (transform, fail, review, skip, http, llm, wait) and output; expressions are
                JSONata over <code className="font-mono">item</code> and <code className="font-mono">inputs</code>. The
                format is described in docs/workflows.md.
              </>
            }
          />
        </Card>
      )}

      <Card title="Completion callbacks">
        {text("callback_url", "Callback URL (optional)", {
          error: callbackError,
          inputMode: "url",
          placeholder: "https://example.com/hooks/agents",
          className: "max-w-2xl",
          hint: (
            <>
              Where this agent&apos;s completion callbacks go when a trigger names no{" "}
              <code className="font-mono">callback_url</code> of its own: a message completed or failed, a run
              completed, failed, paused, cancelled or waiting for review. Signed with the organization&apos;s secret
              (Webhooks page). Empty: none.
            </>
          ),
        })}
      </Card>

      {agent && base !== undefined && onReload && (
        <Stale error={save.error} agent={agent} base={base} onReload={onReload} />
      )}
      {(unplaced.length > 0 || (save.error && !fieldCount && !isConflict(save.error))) && (
        <ErrorState
          error={
            save.error && !fieldCount
              ? save.error
              : { message: unplaced.map(([f, m]) => `${f}: ${m}`).join("; "), requestId: apiError?.requestId }
          }
          title={agent ? "The changes were not saved" : "The agent was not created"}
        />
      )}
      {fieldCount > 0 && (
        <p role="status" className="text-sm text-red-700">
          {fieldCount === 1 ? "One field needs" : `${fieldCount} fields need`} a change (marked above).
          {apiError?.requestId && <span className="ml-1 font-mono text-xs">request id: {apiError.requestId}</span>}
        </p>
      )}

      {agent && (
        <VersionNoteField
          label="Note for this version (optional)"
          className="max-w-2xl"
          value={note}
          onValue={setNote}
          hint="Shown in the Versions tab and the audit log."
        />
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : agent ? "Save draft" : "Create agent"}
        </Button>
        {/* During a rollout a publish is refused (409 rollout_in_progress): complete or roll it back first. */}
        {agent && !agent.rollout && (
          <Button variant="secondary" disabled={save.isPending} onClick={() => submit(true)}>
            Save and publish
          </Button>
        )}
        {!agent && (
          <Link href="/agents" className={buttonClass("secondary")}>
            Cancel
          </Link>
        )}
      </div>
      {/* What the last save did, while the form still shows the agent's head. */}
      {savedAs && (!agent || headOf(agent) === base) && (
        <p role="status" className="text-sm font-medium text-emerald-800">
          {savedAs}
        </p>
      )}
    </form>
  );
}
