"use client";
// Confirming the writes on a member: removing them, and an admin making themself support.
import { useQueryClient } from "@tanstack/react-query";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { apiKey, request } from "@/components/console/use-api";
import type { MemberRecord as Member } from "@/lib/orgs/schemas";
import { useMe } from "@/components/console/me";
import { type Role } from "@/components/console/roles";
import { ConfirmDialog } from "@/components/ui/dialog";
import { ErrorState } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";

export function RemoveDialog({ target, onClose }: { target: Member | null; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const me = useMe();
  const self = target?.email === me.email;
  return (
    <ConfirmWrite
      target={target}
      onClose={onClose}
      title={`Remove ${target?.email ?? "member"}?`}
      description={
        self
          ? `You will lose access to ${me.organization.name} at once.`
          : `They lose access to ${me.organization.name} at once. Their account and other organizations stay.`
      }
      verb="remove"
      noun="member"
      write={(m) =>
        request("DELETE /api/v1/organizations/[org_id]/members/[user_id]", { params: { user_id: m.user_id } })
      }
      onDone={(_r, m) => {
        if (m.email === me.email) {
          window.location.assign("/");
          return;
        }
        toast({ tone: "success", message: `Removed ${m.email}`, detail: "They no longer have access." });
        void qc.invalidateQueries({ queryKey: apiKey("GET /api/v1/organizations/[org_id]/members") });
      }}
    />
  );
}

export function DemoteSelfDialog({
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
