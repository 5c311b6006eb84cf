import type { Metadata } from "next";
import { AdminsOnly } from "@/components/console/forbidden";
import { requireConsolePage } from "@/app/(console)/session.server";
import { MembersView } from "./members-view";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const user = await requireConsolePage("/members");
  return user.role === "admin" ? <MembersView /> : <AdminsOnly title="Members" what="members and invitations" />;
}
