import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { AlertHistoryView } from "./history-view";

export const metadata: Metadata = { title: "Alert history" };

export default async function AlertHistoryPage() {
  await requireConsolePage("/alerts/history");
  return <AlertHistoryView />;
}
