// Every agent of the organization, archived ones included (the agent pickers and names): one read,
// one cache key, shared by every page that names agents.
import { useApiEvery, type Answer, type ReadOptions } from "./use-api";

const AGENTS = "GET /api/v1/organizations/[org_id]/agents";

export const useAllAgents = (options: ReadOptions<Answer<typeof AGENTS>> = {}) =>
  useApiEvery(AGENTS, "agents", { query: { include_archived: true } }, options);
