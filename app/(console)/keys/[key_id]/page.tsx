import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { KeyDetailView } from "./key-detail-view";

export const metadata: Metadata = { title: "Access Key" };

export default async function KeyPage({ params }: { params: Promise<{ key_id: string }> }) {
  const { key_id } = await params;
  await requireConsolePage(`/keys/${encodeURIComponent(key_id)}`);
  return <KeyDetailView keyId={key_id} />;
}
