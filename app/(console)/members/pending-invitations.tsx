"use client";
// The invitations not yet accepted, each revocable.
import { useState } from "react";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { apiKey, request, useApiEvery } from "@/components/console/use-api";
import type { InvitationRecord as Invitation } from "@/lib/orgs/schemas";
import { formatDate, timeLeft } from "@/components/console/format";
import { actionsColumn, DataTable, type DataColumn } from "@/components/console/data-table";
import { Badge } from "@/components/ui/badge";
import { ErrorState, SkeletonRows } from "@/components/ui/states";
import { EmailText } from "@/components/console/email-text";

export function PendingInvitations() {
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const list = useApiEvery("GET /api/v1/organizations/[org_id]/invitations", "invitations", { query: { limit: 100 } });
  if (list.isPending) return <SkeletonRows rows={2} label="Loading invitations" />;
  if (list.error) return <ErrorState error={list.error} title="Invitations could not be loaded" />;
  const rows = list.data.invitations;
  const columns: DataColumn<Invitation>[] = [
    {
      header: "Email",
      className: "max-w-[14rem]",
      cell: (i) => (
        <div className="flex min-h-10 items-center font-medium [overflow-wrap:anywhere]">
          <EmailText text={i.email} />
        </div>
      ),
    },
    {
      header: "Role",
      from: "sm",
      cell: (i) => (
        <div className="flex min-h-10 items-center">
          <Badge tone={i.role === "admin" ? "indigo" : "zinc"}>{i.role}</Badge>
        </div>
      ),
    },
    {
      header: "Invited by",
      from: "md",
      cell: (i) => (
        <div className="flex min-h-10 min-w-0 items-center text-zinc-700">
          {i.invited_by ? <EmailText text={i.invited_by} /> : "—"}
        </div>
      ),
    },
    {
      header: "Expires",
      cell: (i) => (
        <div className="flex min-h-10 items-center whitespace-nowrap">
          <time dateTime={i.expires_at} title={formatDate(i.expires_at)}>
            {timeLeft(i.expires_at)}
          </time>
        </div>
      ),
    },
    actionsColumn(
      (i) => i.email,
      (i) => [{ label: "Revoke", onClick: () => setRevoking(i), name: `Revoke the invitation of ${i.email}` }],
    ),
  ];
  return (
    <section aria-labelledby="pending-invitations" className="mt-8">
      <h2 id="pending-invitations" className="mb-3 text-base font-semibold text-zinc-900">
        Pending invitations
      </h2>
      {rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white px-4 py-6 text-center text-sm text-zinc-600">
          No invitation is waiting to be accepted.
        </p>
      ) : (
        <DataTable label="Pending invitations" columns={columns} rows={rows} rowKey={(i) => i.invitation_id} />
      )}
      <ConfirmWrite
        target={revoking}
        onClose={() => setRevoking(null)}
        title={`Revoke the invitation of ${revoking?.email ?? ""}?`}
        description="Its link stops working at once. You can invite them again later."
        verb="revoke"
        noun="invitation"
        write={(i) =>
          request("DELETE /api/v1/organizations/[org_id]/invitations/[invitation_id]", {
            params: { invitation_id: i.invitation_id },
          })
        }
        done={(_r, i) => ({ message: `Revoked the invitation of ${i.email}`, detail: "Its link no longer works." })}
        invalidates={() => [apiKey("GET /api/v1/organizations/[org_id]/invitations")]}
      />
    </section>
  );
}
