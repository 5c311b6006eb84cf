import type { Metadata } from "next";
import { AdminsOnly } from "@/components/console/forbidden";
import { UrlView } from "@/components/ui/states";
import { requireConsolePage } from "@/lib/http/console-pages";
import { AuditView } from "./audit-view";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  const user = await requireConsolePage("/audit");
  if (user.role !== "admin") {
    return <AdminsOnly title="Audit log" what="The audit log" />;
  }
  return (
    <UrlView label="Loading the audit log">
      <AuditView />
    </UrlView>
  );
}
