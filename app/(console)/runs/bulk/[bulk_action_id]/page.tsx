import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { BulkActionView } from "../../bulk-action-view";

export const metadata: Metadata = { title: "Bulk action" };

export default async function BulkActionPage({ params }: { params: Promise<{ bulk_action_id: string }> }) {
  const { bulk_action_id } = await params;
  await requireConsolePage(`/runs/bulk/${bulk_action_id}`);
  return <BulkActionView bulkActionId={bulk_action_id} />;
}
