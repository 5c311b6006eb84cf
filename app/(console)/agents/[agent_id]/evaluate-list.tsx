"use client";
// "Evaluate a version on these" in the sessions and runs lists' headers: the list's current filters
// (a saved view puts its own in the URL) as the evaluation's source. It needs one agent in the
// filters; without one the button is off and says so.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { EvaluateDialog } from "./evaluate-dialog";

export function EvaluateListButton({ kind, filters }: { kind: "sessions" | "runs"; filters: Record<string, string> }) {
  const [open, setOpen] = useState(false);
  const agentId = filters.agent_id;
  return (
    <>
      <span className="flex flex-wrap items-center gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={!agentId}
          aria-describedby={agentId ? undefined : `evaluate-${kind}-why`}
          onClick={() => setOpen(true)}
        >
          Evaluate a version on these
        </Button>
        {!agentId && (
          <span id={`evaluate-${kind}-why`} className="text-xs text-zinc-600">
            Filter to one agent first
          </span>
        )}
      </span>
      {agentId && open && (
        <EvaluateDialog
          agentId={agentId}
          kind={kind}
          pick={{ filters }}
          title="Evaluate a version on these"
          open
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
