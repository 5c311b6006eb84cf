import type { Metadata } from "next";
import Link from "next/link";
import { AdminsOnly } from "@/components/console/forbidden";
import { requireConsolePage } from "@/app/(console)/session.server";
import { AlertsView } from "./alerts-view";

export const metadata: Metadata = { title: "Alerts" };

export default async function AlertsPage() {
  const user = await requireConsolePage("/alerts");
  if (user.role === "admin") return <AlertsView />;
  // Members read the history (docs/console.md, Alerts); the rules say where alerts go: admins only.
  return (
    <>
      <AdminsOnly title="Alerts" what="alert rules" />
      <p className="mt-4 text-sm">
        <Link href="/alerts/history" className="text-indigo-700 underline-offset-2 hover:underline">
          See the alert history
        </Link>
      </p>
    </>
  );
}
