"use client";
// An admin's writes on an evaluation's page: Cancel while it runs, and "Publish version N" once it
// finished with its candidate still the agent's draft (the publish names the evaluation: its note
// and audit event). Each asks first.
import { useState } from "react";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { useIsAdmin } from "@/components/console/me";
import { apiKey, request } from "@/components/console/use-api";
import { Button } from "@/components/ui/button";
import type { AgentRecord } from "@/lib/agents/schemas";
import type { EvaluationRecord } from "@/lib/evaluations/schemas";
import { isLive } from "../../evaluation-live";

const AGENT = "GET /api/v1/organizations/[org_id]/agents/[agent_id]";
const EVALUATIONS = "GET /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations";

export function EvaluationActions({
  evaluation: e,
  agent,
}: {
  evaluation: EvaluationRecord;
  agent: AgentRecord | undefined;
}) {
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
        write={(t) =>
          request("POST /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cancel", {
            params: { agent_id: t.agent_id, evaluation_id: t.evaluation_id },
          })
        }
        done={() => ({ message: "Evaluation cancelled" })}
        invalidates={(t) => [apiKey(EVALUATIONS, { params: { agent_id: t.agent_id } })]}
      />
      <ConfirmWrite
        target={action === "publish" ? e : null}
        onClose={close}
        title={`Publish version ${version}?`}
        description={`Version ${version} serves all new traffic at once; its note names this evaluation. Open sessions and runs in progress keep their version.`}
        verb="publish"
        noun={`version ${version}`}
        // Publishes the evaluated draft, naming the evaluation (its note and audit event).
        write={(t) =>
          request("POST /api/v1/organizations/[org_id]/agents/[agent_id]/publish", {
            params: { agent_id: t.agent_id },
            body: { version, evaluation_id: t.evaluation_id },
          })
        }
        done={() => ({ message: `Version ${version} is live` })}
        invalidates={(t) => [
          apiKey(AGENT, { params: { agent_id: t.agent_id } }),
          apiKey("GET /api/v1/organizations/[org_id]/agents"),
          apiKey(EVALUATIONS, { params: { agent_id: t.agent_id } }),
        ]}
      />
    </>
  );
}
