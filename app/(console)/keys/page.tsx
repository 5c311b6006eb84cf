import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { KeysView } from "./keys-view";

export const metadata: Metadata = { title: "Access Keys" };

export default async function KeysPage() {
  await requireConsolePage("/keys");
  return <KeysView />;
}
