import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { UploadsView } from "./uploads-view";

export const metadata: Metadata = { title: "Uploads" };

export default async function UploadsPage() {
  await requireConsolePage("/uploads");
  return <UploadsView />;
}
