"use client";
// The confirmations of an agent's version writes (roll back, restore, discard the draft), each
// saying what live traffic gets afterwards.
import { useState } from "react";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { apiKey, request } from "@/components/console/use-api";
import type { AgentRecord, VersionListItem } from "@/lib/agents/schemas";
import { VersionNoteField } from "../agent-form-fields";
import { headOf } from "../head";

const agentWrites = (a: AgentRecord) => [
  apiKey("GET /api/v1/organizations/[org_id]/agents/[agent_id]", { params: { agent_id: a.agent_id } }),
  apiKey("GET /api/v1/organizations/[org_id]/agents"),
];

/** Rollback: ends a rollout in progress, or makes the version that served before live again. */
export function RollbackDialog({ agent, open, onClose }: { agent: AgentRecord; open: boolean; onClose: () => void }) {
  const [note, setNote] = useState("");
  const r = agent.rollout;
  return (
    <ConfirmWrite
      target={open ? agent : null}
      onClose={() => {
        setNote("");
        onClose();
      }}
      title={r ? `Roll back version ${r.version}?` : `Roll back version ${agent.published_version}?`}
      description={
        r
          ? `Version ${r.from_version} will serve all new sessions and runs again; the rollout of version ${r.version} ends.`
          : `Version ${agent.previous_version} (which served before version ${agent.published_version}) will serve all new sessions and runs again.`
      }
      verb="rollBack"
      noun="version"
      write={(a) =>
        request("POST /api/v1/organizations/[org_id]/agents/[agent_id]/rollback", {
          params: { agent_id: a.agent_id },
          body: note.trim() ? { note: note.trim() } : {},
        })
      }
      done={(a) => ({
        message: `Rolled back: version ${a.published_version} serves`,
        detail: "Open sessions and runs in progress keep their version.",
      })}
      invalidates={agentWrites}
    >
      <p className="text-sm text-zinc-700">
        Sessions and runs already on a version keep it. Rolling back twice returns to where you started.
      </p>
      <VersionNoteField className="mt-3" value={note} onValue={setNote} />
    </ConfirmWrite>
  );
}

/** Restore: version `target`'s configuration becomes a new draft; nothing serves it until published. */
export function RestoreDialog({
  agent,
  target,
  onClose,
}: {
  agent: AgentRecord;
  target: VersionListItem | null;
  onClose: () => void;
}) {
  const [note, setNote] = useState("");
  return (
    <ConfirmWrite
      target={target}
      onClose={() => {
        setNote("");
        onClose();
      }}
      title={`Restore version ${target?.version ?? ""}?`}
      description={`Its configuration becomes a new draft${
        agent.draft_version ? `, replacing draft version ${agent.draft_version}` : ""
      }. Nothing changes for live traffic until the draft is published.`}
      verb="restore"
      noun="version"
      write={(v) =>
        request("POST /api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]/restore", {
          params: { agent_id: agent.agent_id, version: v.version },
          body: { base_version: headOf(agent), ...(note.trim() ? { note: note.trim() } : {}) },
        })
      }
      done={(a, v) => ({
        message: `Version ${v.version} restored as draft version ${a.draft_version}`,
        detail: "Not live until published.",
      })}
      invalidates={() => agentWrites(agent)}
    >
      <VersionNoteField className="mt-3" value={note} onValue={setNote} />
    </ConfirmWrite>
  );
}

/** Discard the draft: the version stays in the list (superseded); what serves does not change. */
export function DiscardDialog({ agent, open, onClose }: { agent: AgentRecord; open: boolean; onClose: () => void }) {
  return (
    <ConfirmWrite
      target={open ? agent : null}
      onClose={onClose}
      title={`Discard draft version ${agent.draft_version ?? ""}?`}
      description="The agent will have no draft; the version stays in the list as superseded, and can be restored. Nothing changes for live traffic."
      verb="discard"
      noun="draft"
      write={(a) =>
        request("DELETE /api/v1/organizations/[org_id]/agents/[agent_id]/draft", { params: { agent_id: a.agent_id } })
      }
      done={() => ({ message: "Draft discarded" })}
      invalidates={agentWrites}
    />
  );
}
