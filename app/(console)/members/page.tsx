import type { Metadata } from "next";
import { Forbidden } from "@/components/console/forbidden";
import { PageHeader } from "@/components/ui/misc";
import { requireConsolePage } from "@/lib/http/console-pages";
import { MembersView } from "./members-view";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const user = await requireConsolePage("/members");
  if (user.role !== "admin") {
    return (
      <>
        <PageHeader title="Members" />
        <Forbidden what="Membership" />
      </>
    );
  }
  return <MembersView />;
}
