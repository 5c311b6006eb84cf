import type { Metadata } from "next";
import { UrlView } from "@/components/ui/states";
import { requireConsolePage } from "@/lib/http/console-pages";
import { SessionsView } from "./sessions-view";

export const metadata: Metadata = { title: "Sessions" };

export default async function SessionsPage() {
  await requireConsolePage("/sessions");
  return (
    <UrlView label="Loading sessions">
      <SessionsView />
    </UrlView>
  );
}
