import type { Metadata } from "next";
import { UrlView } from "@/components/ui/states";
import { requireConsolePage } from "@/lib/http/console-pages";
import { RunsView } from "./runs-view";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  await requireConsolePage("/runs");
  return (
    <UrlView label="Loading runs">
      <RunsView />
    </UrlView>
  );
}
