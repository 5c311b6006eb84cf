import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { ReviewsView } from "./reviews-view";

export const metadata: Metadata = { title: "Reviews" };

export default async function ReviewsPage() {
  await requireConsolePage("/reviews");
  return <ReviewsView />;
}
