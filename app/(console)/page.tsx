import type { Metadata } from "next";
import { requireConsolePage } from "@/lib/http/console-pages";
import { OverviewView } from "./overview-view";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  await requireConsolePage("/");
  return <OverviewView />;
}
