import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { TimelineView } from "./timeline-view";

export const metadata: Metadata = { title: "End user" };

export default async function UserPage({ params }: { params: Promise<{ user_id: string }> }) {
  const { user_id } = await params;
  const userId = decoded(user_id);
  await requireConsolePage(`/users/${encodeURIComponent(userId)}`);
  return <TimelineView userId={userId} />;
}

/** The segment as typed: Next may hand it over still percent-encoded. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
