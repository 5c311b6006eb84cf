import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { DeliveryView } from "./delivery-view";

export const metadata: Metadata = { title: "Delivery" };

export default async function DeliveryPage({ params }: { params: Promise<{ delivery_id: string }> }) {
  const { delivery_id } = await params;
  await requireConsolePage(`/webhooks/deliveries/${encodeURIComponent(delivery_id)}`);
  return <DeliveryView deliveryId={delivery_id} />;
}
