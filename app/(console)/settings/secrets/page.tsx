import type { Metadata } from "next";
import { AdminsOnly } from "@/components/console/forbidden";
import { requireConsolePage } from "@/lib/http/console-pages";
import { SecretsView } from "./secrets-view";

export const metadata: Metadata = { title: "Secrets" };

export default async function SecretsPage() {
  const user = await requireConsolePage("/settings/secrets");
  if (user.role !== "admin") {
    return <AdminsOnly title="Secrets" what="The organization's credentials" />;
  }
  return <SecretsView />;
}
