"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ConsoleApiError, del, patch, post } from "@/components/console/api";
import { formatDate, relative } from "@/components/console/format";
import { useMe } from "@/components/console/me";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/misc";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";

type Role = "admin" | "support";

interface Member {
  user_id: string;
  email: string;
  name: string | null;
  role: Role;
  joined_at: string;
}

const ROLES: { value: Role; label: string }[] = [
  { value: "support", label: "Support: reads everything, controls runs, resolves reviews, uses the test console" },
  { value: "admin", label: "Admin: everything support does, plus keys, agents and members" },
];

const errorDetail = (e: unknown) =>
  e instanceof ConsoleApiError && e.requestId ? `request id: ${e.requestId}` : undefined;

function AddMemberDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const me = useMe();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("support");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const add = useMutation({
    mutationFn: () =>
      post<Member>("/members", {
        email: email.trim(),
        role,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(password ? { password } : {}),
      }),
    onSuccess: (m) => {
      toast({ tone: "success", message: `Added ${m.email} as ${m.role}` });
      void qc.invalidateQueries({ queryKey: ["members"] });
      close();
    },
  });
  const close = () => {
    setEmail("");
    setRole("support");
    setName("");
    setPassword("");
    add.reset();
    onClose();
  };
  const fields = add.error instanceof ConsoleApiError ? add.error.fields : {};
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Add a member"
      description={`They get access to ${me.organization.name} with the role you choose.`}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form="add-member" disabled={add.isPending}>
            {add.isPending ? "Adding…" : "Add member"}
          </Button>
        </>
      }
    >
      <form
        id="add-member"
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
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
        <Field label="Name (optional)" error={fields.name}>
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              autoComplete="off"
              aria-describedby={describedBy}
              invalid={invalid}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Initial password"
          error={fields.password}
          hint="Needed for a new user (at least 8 characters); share it with them safely. Someone who already has an account, for example in another organization, is just added and keeps their own password."
        >
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              type="password"
              autoComplete="new-password"
              aria-describedby={describedBy}
              invalid={invalid}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        {add.error && !Object.keys(fields).length && <ErrorState error={add.error} title="The member was not added" />}
      </form>
    </Dialog>
  );
}

function RemoveDialog({ target, onClose }: { target: Member | null; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const me = useMe();
  const self = target?.email === me.email;
  const remove = useMutation({
    mutationFn: (m: Member) => del<{ user_id: string }>(`/members/${encodeURIComponent(m.user_id)}`),
    onSuccess: (_r, m) => {
      if (m.email === me.email) {
        window.location.assign("/");
        return;
      }
      toast({ tone: "success", message: `Removed ${m.email}`, detail: "They no longer have access." });
      void qc.invalidateQueries({ queryKey: ["members"] });
      close();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog
      open={Boolean(target)}
      onClose={close}
      title={`Remove ${target?.email ?? "member"}?`}
      description={
        self
          ? `You will lose access to ${me.organization.name} at once.`
          : `They lose access to ${me.organization.name} at once. Their account and other organizations stay.`
      }
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="danger" disabled={remove.isPending} onClick={() => target && remove.mutate(target)}>
            {remove.isPending ? "Removing…" : "Remove member"}
          </Button>
        </>
      }
    >
      {remove.error && <ErrorState error={remove.error} title="The member was not removed" />}
    </Dialog>
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
    <Dialog
      open={Boolean(target)}
      onClose={onClose}
      title="Make yourself support?"
      description={`You will no longer manage keys, agents or members of ${me.organization.name}. Another admin has to give the role back.`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" disabled={pending} onClick={onConfirm}>
            {pending ? "Changing…" : "Make me support"}
          </Button>
        </>
      }
    >
      {Boolean(error) && <ErrorState error={error} title="Your role was not changed" />}
    </Dialog>
  );
}

export function MembersView() {
  const me = useMe();
  const qc = useQueryClient();
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [demoting, setDemoting] = useState<{ member: Member; role: Role } | null>(null);
  const members = useQuery({ queryKey: ["members"], queryFn: () => api<{ members: Member[] }>("/members") });

  const change = useMutation({
    mutationFn: (v: { member: Member; role: Role }) =>
      patch<Member>(`/members/${encodeURIComponent(v.member.user_id)}`, { role: v.role }),
    onSuccess: (m) => {
      if (m.email === me.email && m.role !== "admin") {
        // No longer an admin here: the whole dashboard changes (navigation, this page).
        window.location.assign("/");
        return;
      }
      toast({ tone: "success", message: `${m.email} is now ${m.role}` });
      setDemoting(null);
      void qc.invalidateQueries({ queryKey: ["members"] });
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
        description={`Who can use the dashboard of ${me.organization.name}, and with which role.`}
        actions={<Button onClick={() => setAdding(true)}>Add member</Button>}
      />
      {members.isPending ? (
        <SkeletonRows label="Loading members" />
      ) : members.error ? (
        <ErrorState error={members.error} title="Members could not be loaded" />
      ) : members.data.members.length === 0 ? (
        <EmptyState title="No members" action={<Button onClick={() => setAdding(true)}>Add a member</Button>}>
          Add the people who run your agents: admins manage keys, agents and members; support reads and operates.
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
                      <span>
                        {m.email.split("@")[0]}
                        <wbr />@{m.email.split("@").slice(1).join("@")}
                      </span>
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
      <AddMemberDialog open={adding} onClose={() => setAdding(false)} />
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
