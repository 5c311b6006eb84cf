"use client";
// The banner of an agent with an unpublished draft: which version, made from which, and (for
// admins) Publish and Discard; everyone may review its changes against the published version.
import { useState } from "react";
import { useIsAdmin } from "@/components/console/me";
import { useApi } from "@/components/console/use-api";
import { Button } from "@/components/ui/button";
import type { AgentRecord } from "@/lib/agents/schemas";
import { DiscardDialog } from "./version-dialogs";

export function DraftBanner({
  agent,
  onPublish,
  onReview,
}: {
  agent: AgentRecord;
  onPublish: () => void;
  onReview: () => void;
}) {
  const admin = useIsAdmin();
  const [discarding, setDiscarding] = useState(false);
  const draft = useApi(
    "GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]",
    { params: { agent_id: agent.agent_id, version: agent.draft_version ?? "" } },
    { enabled: agent.draft_version !== null },
  );
  const base = draft.data?.base_version;
  return (
    <section
      aria-label="Unpublished draft"
      data-testid="draft-banner"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-950 ring-1 ring-amber-300"
    >
      <p>
        <strong>Unpublished draft:</strong> version {agent.draft_version}
        {base ? ` (made from ${base})` : ""}. Triggers do not get it until it is published.
      </p>
      <div className="flex flex-wrap gap-2">
        {admin && (
          <Button size="sm" onClick={onPublish}>
            Publish
          </Button>
        )}
        <Button size="sm" variant="secondary" onClick={onReview}>
          Review changes
        </Button>
        {admin && (
          <Button size="sm" variant="secondary" onClick={() => setDiscarding(true)}>
            Discard
          </Button>
        )}
      </div>
      {admin && <DiscardDialog agent={agent} open={discarding} onClose={() => setDiscarding(false)} />}
    </section>
  );
}
