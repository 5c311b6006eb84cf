"use client";
import { useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { request } from "@/components/console/use-api";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";

export function LoginForm({ next, ssoError }: { next: string; ssoError?: boolean }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(
    ssoError ? "Single sign-on did not let you in: your email is not a member of any organization here." : null,
  );
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!email || !password) {
          setError("Enter your email and password.");
          return;
        }
        setBusy(true);
        setError(null);
        try {
          await request("POST /api/console/auth/sign-in", { body: { email, password } });
          window.location.assign(next);
        } catch (err) {
          setBusy(false);
          if (err instanceof ConsoleApiError && err.code === "rate_limited") {
            setError(`${err.message} Sign-in for this email is locked after five failed attempts.`);
          } else if (err instanceof ConsoleApiError && err.code === "invalid_credentials") {
            setError("Wrong email or password.");
          } else {
            const id = err instanceof ConsoleApiError && err.requestId ? ` (request id ${err.requestId})` : "";
            setError(`Sign-in failed${id}. Try again.`);
          }
        }
      }}
    >
      <TextField label="Email" type="email" autoComplete="username" value={email} onValue={setEmail} required />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onValue={setPassword}
        required
      />
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-red-200">
          {error}
        </p>
      )}
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
