"use client";
// Create or edit an agent: name, kind, runtime (the fields of its type) and, for workflow agents,
// the definition in a JSON editor. The server's zod schemas decide what is valid; their field
// errors (`runtime.base_url`, `workflow.steps.2.when`) are shown at the input or the JSON line.
// The state and the body it builds are in agent-form-state.ts, the inputs in agent-form-fields.tsx
// (name, kind) and runtime-fields.tsx (the runtime).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { JsonEditor } from "@/components/console/json-editor";
import { queryKeys, requests, type Agent } from "@/components/console/queries";
import { Button, buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/misc";
import { ErrorState } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { BasicsCard, textField } from "./agent-form-fields";
import { RuntimeCard } from "./runtime-fields";
import {
  build,
  initialState,
  placeErrors,
  STARTER_WORKFLOW,
  type ClientErrors,
  type FormState,
} from "./agent-form-state";

export function AgentForm({ agent }: { agent?: Agent }) {
  const router = useRouter();
  const toast = useToast();
  const qc = useQueryClient();
  const [s, setS] = useState<FormState>(() => initialState(agent));
  const [clientErrors, setClientErrors] = useState<ClientErrors>({});
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => {
    setS((prev) => ({ ...prev, [k]: v }));
    if (k === "headers" || k === "workflow") setClientErrors((e) => ({ ...e, [k]: undefined }));
  };

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      agent ? requests.updateAgent(agent.agent_id, body) : requests.createAgent(body),
    onSuccess: (saved) => {
      void qc.invalidateQueries({ queryKey: queryKeys.agents() });
      qc.setQueryData(queryKeys.agent(saved.agent_id), saved);
      if (agent) {
        toast({
          tone: "success",
          message: "Changes saved",
          detail: "New triggers use them; runs already started keep theirs.",
        });
      } else {
        toast({ tone: "success", message: `Created ${saved.name}`, detail: "Try it in the test console below." });
        router.push(`/agents/${saved.agent_id}`);
      }
    },
  });

  const { apiError, fields, rt, workflowErrors, headerErrors, callbackError, unplaced, fieldCount } = placeErrors(
    s,
    save.error,
    clientErrors,
  );

  const submit = () => {
    const built = build(s, agent);
    if (!built.ok) {
      setClientErrors(built.errors);
      save.reset();
      return;
    }
    setClientErrors({});
    save.mutate(built.body);
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

      {(unplaced.length > 0 || (save.error && !fieldCount)) && (
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

      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : agent ? "Save changes" : "Create agent"}
        </Button>
        {!agent && (
          <Link href="/agents" className={buttonClass("secondary")}>
            Cancel
          </Link>
        )}
      </div>
    </form>
  );
}
