import type { Metadata } from "next";
import { Suspense } from "react";
import { SkeletonRows } from "@/components/ui/states";
import { requireConsolePage } from "@/lib/http/console-pages";
import { SessionsView } from "./sessions-view";

export const metadata: Metadata = { title: "Sessions" };

export default async function SessionsPage() {
  await requireConsolePage("/sessions");
  return (
    <Suspense fallback={<SkeletonRows label="Loading sessions" />}>
      <SessionsView />
    </Suspense>
  );
}
