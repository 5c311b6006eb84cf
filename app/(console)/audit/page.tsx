import type { Metadata } from "next";
import { Suspense } from "react";
import { Forbidden } from "@/components/console/forbidden";
import { PageHeader } from "@/components/ui/misc";
import { SkeletonRows } from "@/components/ui/states";
import { requireConsolePage } from "@/lib/http/console-pages";
import { AuditView } from "./audit-view";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  const user = await requireConsolePage("/audit");
  if (user.role !== "admin") {
    return (
      <>
        <PageHeader title="Audit log" />
        <Forbidden what="The audit log" />
      </>
    );
  }
  return (
    <Suspense fallback={<SkeletonRows label="Loading the audit log" />}>
      <AuditView />
    </Suspense>
  );
}
