// An agent's head (docs/console.md, Versions): its draft, or the published version when there is
// none; an edit is made on it, and names it as its base_version.
import type { Agent } from "@/components/console/queries";

export const headOf = (a: Pick<Agent, "draft_version" | "published_version">) => a.draft_version ?? a.published_version;
