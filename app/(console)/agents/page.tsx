import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { AgentsView } from "./agents-view";

export const metadata: Metadata = { title: "Agents" };

export default async function AgentsPage() {
  await requireConsolePage("/agents");
  return <AgentsView />;
}
