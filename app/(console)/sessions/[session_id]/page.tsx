import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { ThreadView } from "./thread-view";

export const metadata: Metadata = { title: "Session" };

export default async function SessionPage({ params }: { params: Promise<{ session_id: string }> }) {
  const { session_id } = await params;
  await requireConsolePage(`/sessions/${encodeURIComponent(session_id)}`);
  return <ThreadView sessionId={session_id} />;
}
