// Dashboard sign-in and sign-out over Auth.js, with the lockout of lib/auth/sign-in.ts in front:
// a locked-out email and address pair gets 429 rate_limited with Retry-After before any password
// is checked; the fifth failure within 15 minutes starts the lockout.
import { auditSignIn, clearFailures, endAllSessions, lockedForSeconds, recordFailure } from "../auth/sign-in";
import { ApiError } from "../errors";
import { countRateLimited } from "../metrics";
import { signIn, signOut } from "./auth";

const minutes = (seconds: number) => {
  const m = Math.ceil(seconds / 60);
  return `${m} minute${m === 1 ? "" : "s"}`;
};

const lockedOut = (seconds: number) => {
  countRateLimited("sign_in");
  return new ApiError("rate_limited", `Too many failed sign-ins. Try again in ${minutes(seconds)}.`, {
    retry_after_seconds: seconds,
  });
};

const isCredentialsSignin = (e: unknown) => (e as { type?: string } | null)?.type === "CredentialsSignin";

export async function signInWithPassword(opts: { email: string; password: string; ip: string }) {
  const { email, password, ip } = opts;
  const locked = await lockedForSeconds(email, ip);
  if (locked) throw lockedOut(locked);
  try {
    await signIn("credentials", { email, password, redirect: false });
  } catch (e) {
    if (!isCredentialsSignin(e)) throw e;
    await recordFailure(email, ip);
    await auditSignIn(email, "auth.sign_in_failed", ip);
    const nowLocked = await lockedForSeconds(email, ip);
    if (nowLocked) throw lockedOut(nowLocked);
    throw new ApiError("invalid_credentials", "Wrong email or password.");
  }
  await clearFailures(email, ip);
  await auditSignIn(email, "auth.sign_in", ip);
  return { signed_in: true };
}

export async function signOutHere() {
  await signOut({ redirect: false });
  return { signed_out: true };
}

export async function signOutEverywhere(userId: string) {
  await endAllSessions(userId);
  await signOut({ redirect: false });
  return { signed_out: true, everywhere: true };
}
