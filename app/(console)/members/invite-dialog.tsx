"use client";
// Inviting a member: the form, then the link, shown once.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiKey, request } from "@/components/console/use-api";
import { formatDate, timeLeft } from "@/components/console/format";
import { useMe } from "@/components/console/me";
import { ROLES, type Role } from "@/components/console/roles";
import { ShownOnceDialog } from "@/components/console/shown-once-dialog";
import { Field, Select, TextField } from "@/components/ui/field";

export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const me = useMe();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("support");
  return (
    <ShownOnceDialog
      open={open}
      onClose={onClose}
      form={{
        title: "Invite a member",
        description: `They join ${me.organization.name} with the role you choose once they accept the invitation.`,
        formId: "invite-member",
        submitLabel: "Invite",
        pendingLabel: "Inviting…",
        errorTitle: "The invitation was not made",
      }}
      write={() => request("POST /api/v1/organizations/[org_id]/invitations", { body: { email: email.trim(), role } })}
      onWritten={() =>
        void qc.invalidateQueries({ queryKey: apiKey("GET /api/v1/organizations/[org_id]/invitations") })
      }
      reset={() => {
        setEmail("");
        setRole("support");
      }}
      shown={(made) => ({
        title: "Send this invitation link",
        description: `${made.email} joins ${me.organization.name} as ${made.role} once they accept it. This is the only time the link is shown.`,
        value: made.url,
        testId: "invitation-link",
        copyLabel: "Copy link",
        doneLabel: "Done",
        before: (
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
        ),
        after: (
          <p className="text-xs text-zinc-600">
            Anyone with the link can accept it once, until {formatDate(made.expires_at)} ({timeLeft(made.expires_at)}).
            Revoke it below if it went to the wrong place.
          </p>
        ),
      })}
    >
      {(fields) => (
        <>
          <TextField
            label="Email"
            error={fields.email}
            type="email"
            required
            autoComplete="off"
            value={email}
            onValue={setEmail}
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
        </>
      )}
    </ShownOnceDialog>
  );
}
