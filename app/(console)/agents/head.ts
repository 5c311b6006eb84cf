// An agent's head (docs/console.md, Versions): its draft, else a rollout's new version, else the
// published version; an edit is made on it, and names it as its base_version.
import type { AgentRecord } from "@/lib/agents/schemas";

export const headOf = (a: Pick<AgentRecord, "draft_version" | "published_version" | "rollout">) =>
  a.draft_version ?? a.rollout?.version ?? a.published_version;

/** The head when the agent's answer does not hold its configuration (a draft or a rollout's version), else null. */
export const unpublishedHead = (a: Pick<AgentRecord, "draft_version" | "published_version" | "rollout">) =>
  headOf(a) === a.published_version ? null : headOf(a);
