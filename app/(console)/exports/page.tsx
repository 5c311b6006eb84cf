import type { Metadata } from "next";
import { requireConsolePage } from "@/lib/http/console-pages";
import { ExportsView } from "./exports-view";

export const metadata: Metadata = { title: "Exports" };

export default async function ExportsPage() {
  await requireConsolePage("/exports");
  return <ExportsView />;
}
