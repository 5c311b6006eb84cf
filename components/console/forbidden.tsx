import { EmptyState } from "../ui/states";

/** What a support member sees on an admin-only page. */
export function Forbidden({ what }: { what: string }) {
  return (
    <EmptyState title="Admins only">
      {what} is managed by the organization&apos;s admins. Ask an admin if you need a change here.
    </EmptyState>
  );
}
