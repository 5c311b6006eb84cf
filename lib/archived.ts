// The refusal of new work for an archived agent: triggers, runs and uploads. A file of its own, below
// the domains, because lib/workflow and lib/conversations refuse it too, and lib/agents sits above
// lib/workflow (its schemas hold the workflow definition).
import { ApiError } from "./errors";
import type { Agent } from "./generated/prisma/client";

/** An archived agent takes no new triggers or uploads (409 agent_archived); its data stays readable. */
export function assertNotArchived(agent: Agent) {
  if (!agent.archivedAt) return;
  throw new ApiError(
    "agent_archived",
    `Agent ${agent.id} is archived: it takes no new triggers or uploads. Its sessions, messages, runs and files stay readable.`,
    { agent_id: agent.id, archived_at: agent.archivedAt.toISOString() },
  );
}
