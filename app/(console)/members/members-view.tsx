"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import {
  queryKeys,
  requests,
  useInvitations,
  useMembers,
  type Invitation,
  type Member,
  type NewInvitation,
} from "@/components/console/queries";
import { formatDate, relative, timeLeft } from "@/components/console/format";
import { useMe } from "@/components/console/me";
import { ROLES, type Role } from "@/components/console/roles";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { PageHeader, ShownOnce } from "@/components/ui/misc";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";

/** An email that wraps, preferably before its `@`. */
const EmailText = ({ email }: { email: string }) => (
  <span>
    {email.split("@")[0]}
    <wbr />@{email.split("@").slice(1).join("@")}
  </span>
);

const errorDetail = (e: unknown) =>
  e instanceof ConsoleApiError && e.requestId ? `request id: ${e.requestId}` : undefined;

function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const me = useMe();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("support");
  const [made, setMade] = useState<NewInvitation | null>(null);
  const send = useMutation({
    mutationFn: () => requests.invite({ email: email.trim(), role }),
    onSuccess: (i) => {
      setMade(i);
      void qc.invalidateQueries({ queryKey: queryKeys.invitations() });
    },
  });
  const close = () => {
    setEmail("");
    setRole("support");
    setMade(null);
    send.reset();
    onClose();
  };
  const fields = send.error instanceof ConsoleApiError ? send.error.fields : {};
  if (made) {
    return (
      <Dialog
        open={open}
        onClose={close}
        title="Send this invitation link"
        description={`${made.email} joins ${me.organization.name} as ${made.role} once they accept it. This is the only time the link is shown.`}
        footer={<Button onClick={close}>Done</Button>}
      >
        <div className="space-y-3">
          <p
            role="note"
            className={
              made.emailed
                ? "rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900 ring-1 ring-emerald-300"
                : "rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-300"
            }
          >
            {made.emailed
              ? `Emailed to ${made.email}. You can also send the link yourself.`
              : `Not emailed: copy the link and send it to ${made.email} yourself.`}
          </p>
          <ShownOnce value={made.url} testId="invitation-link" copyLabel="Copy link" />
          <p className="text-xs text-zinc-600">
            Anyone with the link can accept it once, until {formatDate(made.expires_at)} ({timeLeft(made.expires_at)}).
            Revoke it below if it went to the wrong place.
          </p>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Invite a member"
      description={`They join ${me.organization.name} with the role you choose once they accept the invitation.`}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form="invite-member" disabled={send.isPending}>
            {send.isPending ? "Inviting…" : "Invite"}
          </Button>
        </>
      }
    >
      <form
        id="invite-member"
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          send.mutate();
        }}
      >
        <Field label="Email" error={fields.email}>
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              type="email"
              required
              autoComplete="off"
              aria-describedby={describedBy}
              invalid={invalid}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoFocus
            />
          )}
        </Field>
        <Field label="Role" error={fields.role}>
          {({ id, describedBy, invalid }) => (
            <Select
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              value={role}
              onChange={(e) => setRole(e.target.value as Role)}
            >
              {ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <p className="text-xs text-zinc-600">
          You get a link to send them, valid for 7 days and usable once. Inviting the same email again replaces it.
        </p>
        {send.error && !Object.keys(fields).length && (
          <ErrorState error={send.error} title="The invitation was not made" />
        )}
      </form>
    </Dialog>
  );
}

function PendingInvitations() {
  const qc = useQueryClient();
  const toast = useToast();
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const list = useInvitations();
  const revoke = useMutation({
    mutationFn: (i: Invitation) => requests.revokeInvitation(i.invitation_id),
    onSuccess: (_r, i) => {
      toast({ tone: "success", message: `Revoked the invitation of ${i.email}`, detail: "Its link no longer works." });
      void qc.invalidateQueries({ queryKey: queryKeys.invitations() });
      close();
    },
  });
  const close = () => {
    revoke.reset();
    setRevoking(null);
  };
  if (list.isPending) return <SkeletonRows rows={2} label="Loading invitations" />;
  if (list.error) return <ErrorState error={list.error} title="Invitations could not be loaded" />;
  const rows = list.data.invitations;
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
        <Table label="Pending invitations">
          <THead>
            <Tr>
              <Th>Email</Th>
              <Th className="hidden sm:table-cell">Role</Th>
              <Th className="hidden md:table-cell">Invited by</Th>
              <Th>Expires</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </Tr>
          </THead>
          <TBody>
            {rows.map((i) => (
              <Tr key={i.invitation_id}>
                <Td className="max-w-[14rem]">
                  <div className="flex min-h-10 items-center font-medium [overflow-wrap:anywhere]">
                    <EmailText email={i.email} />
                  </div>
                </Td>
                <Td className="hidden sm:table-cell">
                  <div className="flex min-h-10 items-center">
                    <Badge tone={i.role === "admin" ? "indigo" : "zinc"}>{i.role}</Badge>
                  </div>
                </Td>
                <Td className="hidden md:table-cell">
                  <div className="flex min-h-10 items-center break-all text-zinc-700">{i.invited_by ?? "—"}</div>
                </Td>
                <Td>
                  <div className="flex min-h-10 items-center whitespace-nowrap">
                    <time dateTime={i.expires_at} title={formatDate(i.expires_at)}>
                      {timeLeft(i.expires_at)}
                    </time>
                  </div>
                </Td>
                <Td className="w-px">
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => setRevoking(i)}
                    aria-label={`Revoke the invitation of ${i.email}`}
                  >
                    Revoke
                  </Button>
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      <ConfirmDialog
        open={Boolean(revoking)}
        onClose={close}
        title={`Revoke the invitation of ${revoking?.email ?? ""}?`}
        description="Its link stops working at once. You can invite them again later."
        confirmLabel="Revoke invitation"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
      >
        {revoke.error && <ErrorState error={revoke.error} title="The invitation was not revoked" />}
      </ConfirmDialog>
    </section>
  );
}

function RemoveDialog({ target, onClose }: { target: Member | null; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const me = useMe();
  const self = target?.email === me.email;
  const remove = useMutation({
    mutationFn: (m: Member) => requests.removeMember(m.user_id),
    onSuccess: (_r, m) => {
      if (m.email === me.email) {
        window.location.assign("/");
        return;
      }
      toast({ tone: "success", message: `Removed ${m.email}`, detail: "They no longer have access." });
      void qc.invalidateQueries({ queryKey: queryKeys.members() });
      close();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={Boolean(target)}
      onClose={close}
      title={`Remove ${target?.email ?? "member"}?`}
      description={
        self
          ? `You will lose access to ${me.organization.name} at once.`
          : `They lose access to ${me.organization.name} at once. Their account and other organizations stay.`
      }
      confirmLabel="Remove member"
      pendingLabel="Removing…"
      pending={remove.isPending}
      onConfirm={() => target && remove.mutate(target)}
    >
      {remove.error && <ErrorState error={remove.error} title="The member was not removed" />}
    </ConfirmDialog>
  );
}

function DemoteSelfDialog({
  target,
  onClose,
  onConfirm,
  pending,
  error,
}: {
  target: { member: Member; role: Role } | null;
  onClose: () => void;
  onConfirm: () => void;
  pending: boolean;
  error: unknown;
}) {
  const me = useMe();
  return (
    <ConfirmDialog
      open={Boolean(target)}
      onClose={onClose}
      title="Make yourself support?"
      description={`You will no longer manage keys, agents or members of ${me.organization.name}. Another admin has to give the role back.`}
      confirmLabel="Make me support"
      pendingLabel="Changing…"
      pending={pending}
      onConfirm={onConfirm}
    >
      {Boolean(error) && <ErrorState error={error} title="Your role was not changed" />}
    </ConfirmDialog>
  );
}

export function MembersView() {
  const me = useMe();
  const qc = useQueryClient();
  const toast = useToast();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [demoting, setDemoting] = useState<{ member: Member; role: Role } | null>(null);
  const members = useMembers();

  const change = useMutation({
    mutationFn: (v: { member: Member; role: Role }) => requests.changeRole(v.member.user_id, v.role),
    onSuccess: (m) => {
      if (m.email === me.email && m.role !== "admin") {
        // No longer an admin here: the whole console changes (navigation, this page).
        window.location.assign("/");
        return;
      }
      toast({ tone: "success", message: `${m.email} is now ${m.role}` });
      setDemoting(null);
      void qc.invalidateQueries({ queryKey: queryKeys.members() });
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

  return (
    <>
      <PageHeader
        title="Members"
        description={`Who can use the console of ${me.organization.name}, and with which role.`}
        actions={<Button onClick={() => setInviting(true)}>Invite member</Button>}
      />
      {members.isPending ? (
        <SkeletonRows label="Loading members" />
      ) : members.error ? (
        <ErrorState error={members.error} title="Members could not be loaded" />
      ) : members.data.members.length === 0 ? (
        <EmptyState title="No members" action={<Button onClick={() => setInviting(true)}>Invite a member</Button>}>
          Invite the people who run your agents: admins manage keys, agents and members; support reads and operates.
        </EmptyState>
      ) : (
        <Table label="Members">
          <THead>
            <Tr>
              <Th>Email</Th>
              <Th className="hidden md:table-cell">Name</Th>
              <Th className="hidden sm:table-cell">Joined</Th>
              <Th>Role</Th>
            </Tr>
          </THead>
          <TBody>
            {members.data.members.map((m) => {
              const self = m.email === me.email;
              return (
                <Tr key={m.user_id}>
                  <Td className="max-w-[16rem]">
                    <div className="flex min-h-10 flex-wrap items-center gap-x-2 font-medium [overflow-wrap:anywhere]">
                      <EmailText email={m.email} />
                      {self && <Badge tone="indigo">you</Badge>}
                    </div>
                  </Td>
                  <Td className="hidden md:table-cell">
                    <div className="flex min-h-10 items-center break-words">
                      {m.name ?? <span className="text-zinc-500">—</span>}
                    </div>
                  </Td>
                  <Td className="hidden sm:table-cell">
                    <div className="flex min-h-10 items-center whitespace-nowrap">
                      <time dateTime={m.joined_at} title={relative(m.joined_at)}>
                        {formatDate(m.joined_at)}
                      </time>
                    </div>
                  </Td>
                  <Td className="w-px">
                    {/* The role and the removal side by side, stacked on a phone. */}
                    <div className="flex flex-col items-end gap-2 sm:flex-row sm:items-center">
                      <div className="w-32">
                        <Select
                          aria-label={`Role of ${m.email}`}
                          value={pendingRole(m)}
                          disabled={change.isPending}
                          onChange={(e) => {
                            const role = e.target.value as Role;
                            if (self && m.role === "admin" && role !== "admin") setDemoting({ member: m, role });
                            else change.mutate({ member: m, role });
                          }}
                        >
                          <option value="admin">admin</option>
                          <option value="support">support</option>
                        </Select>
                      </div>
                      <Button
                        variant="secondary"
                        size="sm"
                        onClick={() => setRemoving(m)}
                        aria-label={`Remove ${m.email}`}
                      >
                        Remove
                      </Button>
                    </div>
                  </Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
      )}
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
