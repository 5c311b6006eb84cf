import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { BulkActionsView } from "./bulk-actions-view";

export const metadata: Metadata = { title: "Bulk actions" };

export default async function BulkActionsPage() {
  await requireConsolePage("/runs/bulk");
  return <BulkActionsView />;
}
