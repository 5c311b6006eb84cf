// Console sign-in and sign-out over Auth.js. The password check, the lockout and the audit rows
// are in the credentials provider's `authorize` (./auth.ts), which Auth.js's own endpoint uses too;
// this route turns its refusals into the error envelope: 401 invalid_credentials, or 429
// rate_limited with Retry-After for a locked-out email and address pair.
import { endAllSessions } from "../auth/sessions";
import { ApiError } from "../errors";
import { signIn, signOut, SignInLocked } from "./auth";

const minutes = (seconds: number) => {
  const m = Math.ceil(seconds / 60);
  return `${m} minute${m === 1 ? "" : "s"}`;
};

const isCredentialsSignin = (e: unknown) => (e as { type?: string } | null)?.type === "CredentialsSignin";

export async function signInWithPassword(opts: { email: string; password: string }) {
  try {
    await signIn("credentials", { email: opts.email, password: opts.password, redirect: false });
  } catch (e) {
    if (e instanceof SignInLocked) {
      throw new ApiError("rate_limited", `Too many failed sign-ins. Try again in ${minutes(e.retryAfterSeconds)}.`, {
        retry_after_seconds: e.retryAfterSeconds,
      });
    }
    if (isCredentialsSignin(e)) throw new ApiError("invalid_credentials", "Wrong email or password.");
    throw e;
  }
  return { signed_in: true as const };
}

export async function signOutHere() {
  await signOut({ redirect: false });
  return { signed_out: true as const };
}

export async function signOutEverywhere(userId: string) {
  await endAllSessions(userId);
  await signOut({ redirect: false });
  return { signed_out: true as const, everywhere: true as const };
}
