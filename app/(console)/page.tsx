import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { OverviewView } from "./overview-view";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  await requireConsolePage("/");
  return <OverviewView />;
}
