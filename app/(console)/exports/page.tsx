import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { ExportsView } from "./exports-view";

export const metadata: Metadata = { title: "Exports" };

export default async function ExportsPage() {
  await requireConsolePage("/exports");
  return <ExportsView />;
}
