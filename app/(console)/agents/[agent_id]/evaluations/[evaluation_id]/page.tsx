import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { EvaluationView } from "./evaluation-view";

export const metadata: Metadata = { title: "Evaluation" };

export default async function EvaluationPage({
  params,
}: {
  params: Promise<{ agent_id: string; evaluation_id: string }>;
}) {
  const { agent_id, evaluation_id } = await params;
  await requireConsolePage(`/agents/${encodeURIComponent(agent_id)}/evaluations/${encodeURIComponent(evaluation_id)}`);
  return <EvaluationView agentId={agent_id} evaluationId={evaluation_id} />;
}
