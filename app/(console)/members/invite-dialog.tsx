"use client";
// Inviting a member: the form, then the link, shown once.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { FormDialog } from "@/components/console/form-dialog";
import { ConsoleApiError } from "@/components/console/api";
import { queryKeys, requests, type NewInvitation } from "@/components/console/queries";
import { formatDate, timeLeft } from "@/components/console/format";
import { useMe } from "@/components/console/me";
import { ROLES, type Role } from "@/components/console/roles";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Select, TextField } from "@/components/ui/field";
import { ShownOnce } from "@/components/ui/misc";
import { ErrorState } from "@/components/ui/states";

export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
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
    <FormDialog
      open={open}
      onClose={close}
      title="Invite a member"
      description={`They join ${me.organization.name} with the role you choose once they accept the invitation.`}
      formId="invite-member"
      submitLabel="Invite"
      pendingLabel="Inviting…"
      pending={send.isPending}
      onSubmit={() => send.mutate()}
    >
      <TextField
        label="Email"
        error={fields.email}
        type="email"
        required
        autoComplete="off"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        autoFocus
      />
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
    </FormDialog>
  );
}
