// The page an invitation link opens (`/invite/<token>`), readable signed out: the organization, the
// role and the email the invitation is for, and how to accept it (docs/console.md, Invitations).
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { ROLE_DESCRIPTIONS } from "@/components/console/roles";
import { invitationPage } from "./invitation.server";
import { InviteActions } from "./invite-actions";

// The token is in this page's address: no Referer carries it to anything the page links to.
export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer", robots: { index: false } };

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md">
        <p className="text-center text-sm font-medium text-zinc-600">Agent Webhook Service</p>
        <div className="mt-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200">
          <h1 className="text-lg font-semibold break-words text-zinc-900">{title}</h1>
          {children}
        </div>
      </div>
    </main>
  );
}

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { invitation, user, error } = await invitationPage(token);
  if (!invitation) {
    return (
      <Frame title="This invitation link is not valid">
        <p className="mt-2 text-sm text-zinc-700">
          {error.code === "invitation_not_found"
            ? "Check that the whole link was copied, or ask the person who invited you for a new one."
            : error.message}
        </p>
      </Frame>
    );
  }
  const { organization, email, role } = invitation;
  const details: [string, ReactNode][] = [
    ["Organization", organization.name],
    ["For", email],
    ["Role", `${role}: ${ROLE_DESCRIPTIONS[role]}`],
    ["Invited by", invitation.invited_by ?? "an admin"],
  ];
  return (
    <Frame
      title={invitation.status === "pending" ? `Join ${organization.name}` : "This invitation can no longer be used"}
    >
      <dl className="mt-4 space-y-2 text-sm">
        {details.map(([k, v]) => (
          <div key={k} className="grid grid-cols-[7rem_1fr] gap-2">
            <dt className="text-zinc-600">{k}</dt>
            <dd className="min-w-0 font-medium break-words text-zinc-900">{v}</dd>
          </div>
        ))}
      </dl>
      {invitation.status === "pending" ? (
        <InviteActions token={token} email={email} expiresAt={invitation.expires_at} signedInAs={user?.email ?? null} />
      ) : (
        <p role="alert" className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-300">
          {invitation.message}
        </p>
      )}
    </Frame>
  );
}
