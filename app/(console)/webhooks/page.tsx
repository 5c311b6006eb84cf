import type { Metadata } from "next";
import { Suspense } from "react";
import { SkeletonRows } from "@/components/ui/states";
import { requireConsolePage } from "@/lib/http/console-pages";
import { WebhooksView } from "./webhooks-view";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  await requireConsolePage("/webhooks");
  return (
    <Suspense fallback={<SkeletonRows label="Loading webhooks" />}>
      <WebhooksView />
    </Suspense>
  );
}
