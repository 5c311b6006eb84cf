"use client";
// An admin's writes on an evaluation's page: Cancel while it runs, and "Publish version N" once it
// finished with its candidate still the agent's draft (the publish names the evaluation: its note
// and audit event). Each asks first.
import { useState } from "react";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { evaluationKeys, evaluationRequests, isLive, type Evaluation } from "@/components/console/evaluation-queries";
import { useIsAdmin } from "@/components/console/me";
import { queryKeys, type Agent } from "@/components/console/queries";
import { Button } from "@/components/ui/button";

export function EvaluationActions({ evaluation: e, agent }: { evaluation: Evaluation; agent: Agent | undefined }) {
  const admin = useIsAdmin();
  const [action, setAction] = useState<"cancel" | "publish" | null>(null);
  if (!admin) return null;
  const version = e.candidate.version;
  const publishable =
    e.status === "completed" || e.status === "stopped"
      ? agent !== undefined && agent.draft_version === version && e.candidate.draft
      : false;
  const close = () => setAction(null);
  return (
    <>
      {isLive(e) && (
        <Button variant="secondary" size="sm" onClick={() => setAction("cancel")}>
          Cancel evaluation
        </Button>
      )}
      {publishable && (
        <Button size="sm" onClick={() => setAction("publish")}>
          Publish version {version}
        </Button>
      )}
      <ConfirmWrite
        target={action === "cancel" ? e : null}
        onClose={close}
        title="Cancel this evaluation?"
        description="Cases not replayed yet are left out; the figures keep what finished."
        verb="cancel"
        noun="evaluation"
        write={(t) => evaluationRequests.cancel(t.agent_id, t.evaluation_id)}
        done={() => ({ message: "Evaluation cancelled" })}
        invalidates={(t) => [evaluationKeys.agent(t.agent_id)]}
      />
      <ConfirmWrite
        target={action === "publish" ? e : null}
        onClose={close}
        title={`Publish version ${version}?`}
        description={`Version ${version} serves all new traffic at once; its note names this evaluation. Open sessions and runs in progress keep their version.`}
        verb="publish"
        noun={`version ${version}`}
        write={(t) => evaluationRequests.publish(t.agent_id, version, t.evaluation_id)}
        done={() => ({ message: `Version ${version} is live` })}
        invalidates={(t) => [queryKeys.agent(t.agent_id), queryKeys.agents(), evaluationKeys.agent(t.agent_id)]}
      />
    </>
  );
}
