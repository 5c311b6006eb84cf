import { PageHeader } from "../ui/misc";
import { EmptyState } from "../ui/states";

/**
 * What a support member sees on an admin-only page: "Only the organization's admins manage alert
 * rules." (`what` is the object, singular or plural alike; `verb` what admins do with it).
 */
export function Forbidden({ what, verb = "manage" }: { what: string; verb?: string }) {
  return (
    <EmptyState title="Admins only">
      Only the organization&apos;s admins {verb} {what}. Ask an admin if you need a change here.
    </EmptyState>
  );
}

/** An admin-only page as a support member sees it: its title, and who manages it. */
export function AdminsOnly({ title, what, verb }: { title: string; what: string; verb?: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Forbidden what={what} verb={verb} />
    </>
  );
}
