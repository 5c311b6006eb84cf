import type { Metadata } from "next";
import { AdminsOnly } from "@/components/console/forbidden";
import { requireConsolePage } from "@/app/(console)/session.server";
import { SecretsView } from "./secrets-view";

export const metadata: Metadata = { title: "Secrets" };

export default async function SecretsPage() {
  const user = await requireConsolePage("/settings/secrets");
  return user.role === "admin" ? <SecretsView /> : <AdminsOnly title="Secrets" what="the organization's secrets" />;
}
