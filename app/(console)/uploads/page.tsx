import type { Metadata } from "next";
import { Suspense } from "react";
import { SkeletonRows } from "@/components/ui/states";
import { requireConsolePage } from "@/lib/http/console-pages";
import { UploadsView } from "./uploads-view";

export const metadata: Metadata = { title: "Uploads" };

export default async function UploadsPage() {
  await requireConsolePage("/uploads");
  return (
    <Suspense fallback={<SkeletonRows label="Loading uploads" />}>
      <UploadsView />
    </Suspense>
  );
}
