import type { Metadata } from "next";
import { UrlView } from "@/components/ui/states";
import { requireConsolePage } from "@/lib/http/console-pages";
import { WebhooksView } from "./webhooks-view";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  await requireConsolePage("/webhooks");
  return (
    <UrlView label="Loading webhooks">
      <WebhooksView />
    </UrlView>
  );
}
