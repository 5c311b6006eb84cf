import { PageHeader } from "../ui/misc";
import { EmptyState } from "../ui/states";

/** What a support member sees on an admin-only page. */
export function Forbidden({ what }: { what: string }) {
  return (
    <EmptyState title="Admins only">
      {what} is managed by the organization&apos;s admins. Ask an admin if you need a change here.
    </EmptyState>
  );
}

/** An admin-only page as a support member sees it: its title, and who manages it. */
export function AdminsOnly({ title, what }: { title: string; what: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Forbidden what={what} />
    </>
  );
}
