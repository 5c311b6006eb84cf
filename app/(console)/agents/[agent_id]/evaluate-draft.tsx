"use client";
// The Versions tab's "Evaluate draft" (admins): off, with the reason, while the agent has no draft.
import { useState } from "react";
import { useIsAdmin } from "@/components/console/me";
import type { AgentRecord } from "@/lib/agents/schemas";
import { Button } from "@/components/ui/button";
import { EvaluateDialog } from "./evaluate-dialog";

export function EvaluateDraftButton({ agent }: { agent: AgentRecord }) {
  const admin = useIsAdmin();
  const [open, setOpen] = useState(false);
  if (!admin) return null;
  const none = agent.draft_version === null;
  return (
    <>
      <span className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          disabled={none}
          aria-describedby={none ? "evaluate-draft-why" : undefined}
          onClick={() => setOpen(true)}
        >
          Evaluate draft
        </Button>
        {none && (
          <span id="evaluate-draft-why" className="text-xs text-zinc-600">
            No draft to evaluate: change the agent first.
          </span>
        )}
      </span>
      {!none && (
        <EvaluateDialog
          agentId={agent.agent_id}
          kind={agent.kind === "workflow" ? "runs" : "sessions"}
          title={`Evaluate draft version ${agent.draft_version}`}
          open={open}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
