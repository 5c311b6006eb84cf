"use client";
// Accepting an invitation: signed in with the invited email, one button; signed in as someone else,
// the reason and a way to sign out; signed out, sign in to accept with an existing account, or
// create one (the same form whether or not an account exists: the page does not tell).
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { request } from "@/components/console/use-api";
import { formatDate, timeLeft } from "@/components/console/format";
import { Button, buttonClass } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { useFormValues } from "@/components/ui/use-form";

const note = "mt-4 rounded-md px-3 py-2 text-sm ring-1";

function Problem({ error }: { error: unknown }) {
  const e = error instanceof ConsoleApiError ? error : null;
  return (
    <p role="alert" className={`${note} bg-red-50 text-red-900 ring-red-200`}>
      {e?.message ?? "The invitation could not be accepted. Try again."}
      {e?.requestId && <span className="mt-1 block font-mono text-xs">request id: {e.requestId}</span>}
    </p>
  );
}

export function InviteActions({
  token,
  email,
  expiresAt,
  signedInAs,
}: {
  token: string;
  email: string;
  expiresAt: string;
  signedInAs: string | null;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const form = useFormValues({ name: "", password: "" });
  const { name, password } = form.values;
  const signInHref = `/login?next=${encodeURIComponent(`/invite/${token}`)}`;

  const accept = async (body: Record<string, string>) => {
    setBusy(true);
    setError(null);
    try {
      const done = await request("POST /api/console/invitations/accept", { body: { token, ...body } });
      // Signed in (now or before): the console, in the organization just joined.
      window.location.assign(done.signed_in ? "/" : "/login");
    } catch (e) {
      setBusy(false);
      setError(e);
    }
  };
  const fields = error instanceof ConsoleApiError ? error.fields : {};
  const expiry = (
    <p className="mt-3 text-xs text-zinc-600">
      The link works once; it expires <time dateTime={expiresAt}>{formatDate(expiresAt)}</time> ({timeLeft(expiresAt)}).
    </p>
  );

  if (signedInAs && signedInAs.toLowerCase() === email) {
    return (
      <div className="mt-5">
        <p className="text-sm text-zinc-700">You are signed in as {signedInAs}.</p>
        {Boolean(error) && <Problem error={error} />}
        <Button className="mt-4 w-full" disabled={busy} onClick={() => accept({})}>
          {busy ? "Joining…" : "Accept invitation"}
        </Button>
        {expiry}
      </div>
    );
  }

  if (signedInAs) {
    return (
      <div className="mt-5">
        <p role="alert" className={`${note} bg-amber-50 text-amber-900 ring-amber-300`}>
          You are signed in as <strong className="break-all">{signedInAs}</strong>, and this invitation is for{" "}
          <strong className="break-all">{email}</strong>. Sign out, then open this link again to accept it with that
          email.
        </p>
        <Button
          variant="secondary"
          className="mt-4 w-full"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await request("POST /api/console/auth/sign-out", {}).catch(() => undefined);
            window.location.reload();
          }}
        >
          Sign out
        </Button>
        {expiry}
      </div>
    );
  }

  return (
    <div className="mt-5 space-y-5">
      <div>
        <h2 className="text-sm font-semibold text-zinc-900">Already have an account for this email?</h2>
        <a href={signInHref} className={`${buttonClass("secondary")} mt-2 w-full`}>
          Sign in to accept
        </a>
      </div>
      <form
        noValidate
        className="space-y-4 border-t border-zinc-200 pt-5"
        onSubmit={(e) => {
          e.preventDefault();
          void accept({ password, ...(name.trim() ? { name: name.trim() } : {}) });
        }}
      >
        <h2 className="text-sm font-semibold text-zinc-900">New here? Create your account</h2>
        <TextField label="Your name (optional)" autoComplete="name" {...form.bind("name", fields)} />
        <TextField
          label="Choose a password"
          hint="At least 8 characters."
          type="password"
          autoComplete="new-password"
          {...form.bind("password", fields)}
        />
        {Boolean(error) && !Object.keys(fields).length && <Problem error={error} />}
        {error instanceof ConsoleApiError && error.code === "account_exists" && (
          <a href={signInHref} className={`${buttonClass("primary")} w-full`}>
            Sign in to accept
          </a>
        )}
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Creating your account…" : "Create account and join"}
        </Button>
      </form>
      {expiry}
    </div>
  );
}
