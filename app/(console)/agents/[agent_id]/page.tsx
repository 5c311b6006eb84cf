import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { AgentDetailView } from "./agent-detail-view";

export const metadata: Metadata = { title: "Agent" };

export default async function AgentPage({ params }: { params: Promise<{ agent_id: string }> }) {
  const { agent_id } = await params;
  await requireConsolePage(`/agents/${encodeURIComponent(agent_id)}`);
  return <AgentDetailView agentId={agent_id} />;
}
