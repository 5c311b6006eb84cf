import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { RetentionView } from "./retention-view";

export const metadata: Metadata = { title: "Retention" };

export default async function RetentionPage() {
  await requireConsolePage("/settings/retention");
  return <RetentionView />;
}
