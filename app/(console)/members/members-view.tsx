"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { apiKey, request, useApiEvery } from "@/components/console/use-api";
import type { MemberRecord as Member } from "@/lib/orgs/schemas";
import { ListResult } from "@/components/console/list-result";
import { DataTable, type DataColumn } from "@/components/console/data-table";
import { formatDate, relative } from "@/components/console/format";
import { useMe } from "@/components/console/me";
import { type Role } from "@/components/console/roles";
import { Badge } from "@/components/ui/badge";
import { Button, RowAction } from "@/components/ui/button";
import { Select } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { EmailText } from "@/components/console/email-text";
import { InviteDialog } from "./invite-dialog";
import { DemoteSelfDialog, RemoveDialog } from "./member-dialogs";
import { PendingInvitations } from "./pending-invitations";

const errorDetail = (e: unknown) =>
  e instanceof ConsoleApiError && e.requestId ? `request id: ${e.requestId}` : undefined;

export function MembersView() {
  const me = useMe();
  const qc = useQueryClient();
  const toast = useToast();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [demoting, setDemoting] = useState<{ member: Member; role: Role } | null>(null);
  const members = useApiEvery("GET /api/v1/organizations/[org_id]/members", "members", {});

  const change = useMutation({
    mutationFn: (v: { member: Member; role: Role }) =>
      request("PATCH /api/v1/organizations/[org_id]/members/[user_id]", {
        params: { user_id: v.member.user_id },
        body: { role: v.role },
      }),
    onSuccess: (m) => {
      if (m.email === me.email && m.role !== "admin") {
        // No longer an admin here: the whole console changes (navigation, this page).
        window.location.assign("/");
        return;
      }
      toast({ tone: "success", message: `${m.email} is now ${m.role}` });
      setDemoting(null);
      void qc.invalidateQueries({ queryKey: apiKey("GET /api/v1/organizations/[org_id]/members") });
    },
    onError: (e, v) => {
      if (demoting) return; // shown in the dialog
      toast({
        tone: "error",
        message: `The role of ${v.member.email} was not changed: ${(e as Error).message}`,
        detail: errorDetail(e),
      });
    },
  });

  const pendingRole = (m: Member) =>
    change.isPending && change.variables?.member.user_id === m.user_id ? change.variables.role : m.role;

  const columns: DataColumn<Member>[] = [
    {
      header: "Email",
      className: "max-w-[16rem]",
      cell: (m) => (
        <div className="flex min-h-10 flex-wrap items-center gap-x-2 font-medium [overflow-wrap:anywhere]">
          <EmailText text={m.email} />
          {m.email === me.email && <Badge tone="indigo">you</Badge>}
        </div>
      ),
    },
    {
      header: "Name",
      from: "md",
      cell: (m) => (
        <div className="flex min-h-10 items-center break-words">
          {m.name ?? <span className="text-zinc-500">—</span>}
        </div>
      ),
    },
    {
      header: "Joined",
      from: "sm",
      cell: (m) => (
        <div className="flex min-h-10 items-center whitespace-nowrap">
          <time dateTime={m.joined_at} title={relative(m.joined_at)}>
            {formatDate(m.joined_at)}
          </time>
        </div>
      ),
    },
    {
      header: "Role",
      className: "w-px",
      cell: (m) => (
        // The role and the removal side by side, stacked on a phone.
        <div className="flex flex-col items-end gap-2 sm:flex-row sm:items-center">
          <div className="w-32">
            <Select
              aria-label={`Role of ${m.email}`}
              value={pendingRole(m)}
              disabled={change.isPending}
              onChange={(e) => {
                const role = e.target.value as Role;
                if (m.email === me.email && m.role === "admin" && role !== "admin") setDemoting({ member: m, role });
                else change.mutate({ member: m, role });
              }}
            >
              <option value="admin">admin</option>
              <option value="support">support</option>
            </Select>
          </div>
          <RowAction onClick={() => setRemoving(m)} aria-label={`Remove ${m.email}`}>
            Remove
          </RowAction>
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Members"
        description={`Who can use the console of ${me.organization.name}, and with which role.`}
        actions={<Button onClick={() => setInviting(true)}>Invite member</Button>}
      />
      <ListResult
        query={members}
        rows={(d) => d.members}
        noun="members"
        empty={
          <EmptyState title="No members" action={<Button onClick={() => setInviting(true)}>Invite a member</Button>}>
            Invite the people who run your agents: admins manage keys, agents and members; support reads and operates.
          </EmptyState>
        }
      >
        {(rows) => <DataTable label="Members" columns={columns} rows={rows} rowKey={(m) => m.user_id} />}
      </ListResult>
      <PendingInvitations />
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
      <RemoveDialog target={removing} onClose={() => setRemoving(null)} />
      <DemoteSelfDialog
        target={demoting}
        pending={change.isPending}
        error={demoting ? change.error : null}
        onClose={() => {
          change.reset();
          setDemoting(null);
        }}
        onConfirm={() => demoting && change.mutate(demoting)}
      />
    </>
  );
}
