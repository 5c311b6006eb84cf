// The answers of the agent routes that carry the agent's ETag (docs/api.md, Versions): its head
// version (the draft, else a rollout's new version, else the published one), which a draft write
// names in If-Match.
import type { z } from "zod";
import type { AgentRecord } from "@/lib/agents/schemas";
import { HttpAnswer } from "@/lib/http/respond";

type AgentAnswer = z.output<typeof AgentRecord>;

export const agentEtag = (a: Pick<AgentAnswer, "draft_version" | "published_version" | "rollout">) =>
  `"v${a.draft_version ?? a.rollout?.version ?? a.published_version}"`;

/** The agent's record with its ETag. */
export const agentWithEtag = (agent: AgentAnswer, status = 200) =>
  new HttpAnswer(agent, status, { etag: agentEtag(agent) });

/** A publish answers the agent (with its ETag), or a dry run's preview as it is. */
export const publishReply = <T extends object>(answer: AgentAnswer | T) =>
  "dry_run" in answer ? answer : agentWithEtag(answer as AgentAnswer);
