import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { RunsView } from "./runs-view";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  await requireConsolePage("/runs");
  return <RunsView />;
}
