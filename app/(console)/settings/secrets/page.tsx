import type { Metadata } from "next";
import { Forbidden } from "@/components/console/forbidden";
import { PageHeader } from "@/components/ui/misc";
import { requireConsolePage } from "@/lib/http/console-pages";
import { SecretsView } from "./secrets-view";

export const metadata: Metadata = { title: "Secrets" };

export default async function SecretsPage() {
  const user = await requireConsolePage("/settings/secrets");
  if (user.role !== "admin") {
    return (
      <>
        <PageHeader title="Secrets" />
        <Forbidden what="The organization's credentials" />
      </>
    );
  }
  return <SecretsView />;
}
