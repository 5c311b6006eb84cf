import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { WebhooksView } from "./webhooks-view";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  await requireConsolePage("/webhooks");
  return <WebhooksView />;
}
