import type { Metadata } from "next";
import { Forbidden } from "@/components/console/forbidden";
import { PageHeader } from "@/components/ui/misc";
import { requireConsolePage } from "@/app/(console)/session.server";
import { AgentForm } from "../agent-form";

export const metadata: Metadata = { title: "New agent" };

export default async function NewAgentPage() {
  const user = await requireConsolePage("/agents/new");
  return (
    <>
      <PageHeader
        title="New agent"
        description="Pick a kind and a runtime; workflow agents also declare their steps. You can try the agent right after."
      />
      {user.role === "admin" ? <AgentForm /> : <Forbidden verb="create" what="agents" />}
    </>
  );
}
