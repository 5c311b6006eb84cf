import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { RunView } from "./run-view";

export const metadata: Metadata = { title: "Run" };

export default async function RunPage({ params }: { params: Promise<{ run_id: string }> }) {
  const { run_id } = await params;
  await requireConsolePage(`/runs/${run_id}`);
  return <RunView runId={run_id} />;
}
