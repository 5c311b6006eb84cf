import type { Metadata } from "next";
import { AdminsOnly } from "@/components/console/forbidden";
import { requireConsolePage } from "@/app/(console)/session.server";
import { AuditView } from "./audit-view";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  const user = await requireConsolePage("/audit");
  return user.role === "admin" ? <AuditView /> : <AdminsOnly title="Audit log" verb="read" what="the audit log" />;
}
