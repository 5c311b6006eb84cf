import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { SessionsView } from "./sessions-view";

export const metadata: Metadata = { title: "Sessions" };

export default async function SessionsPage() {
  await requireConsolePage("/sessions");
  return <SessionsView />;
}
