// Console sign-in with Auth.js (next-auth v5): email and password against the users the CLI and
// the first start create, and OpenID Connect when OIDC_ISSUER, OIDC_CLIENT_ID and
// OIDC_CLIENT_SECRET are set (matched by email to an existing member; no self sign-up). Sessions
// are JWTs in an httpOnly, SameSite=Lax cookie (Secure under https) that name a stored session
// (lib/auth/sessions.ts): signing out deletes it, so the cookie is dead on the server too.
import type { NextRequest } from "next/server";
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { authSecret } from "../auth/secret-files";
import { endSession, SESSION_MAX_AGE_SECONDS, sessionUser, startSession } from "../auth/sessions";
import { attemptSignIn, normaliseEmail, SignInFields } from "../auth/sign-in";
import { prisma } from "../db";
import { env } from "../env";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { log } from "../log";
import { countRateLimited } from "../metrics";
import { baseUrl } from "./base-url";
import { clientIp } from "./client-ip";
import { expectAuth, type RouteContract } from "./contract";
import { errorResponse } from "./respond";
import { safeNext } from "./safe-next";

export function oidcConfigured(): boolean {
  const e = env();
  return Boolean(e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET);
}

/** The user behind an SSO identity: an existing user with at least one membership, by email. */
export async function memberByEmail(email: unknown) {
  if (typeof email !== "string" || !email) return null;
  const db = await prisma();
  const user = await db.user.findUnique({
    where: { email: normaliseEmail(email) },
    include: { memberships: { select: { id: true }, take: 1 } },
  });
  return user && user.memberships.length ? user : null;
}

/**
 * A sign-in refused because the email and address pair is locked out. Auth.js's own endpoint
 * redirects to /login?error=CredentialsSignin&code=locked; the console's route answers 429.
 */
export class SignInLocked extends CredentialsSignin {
  code = "locked";
  constructor(readonly retryAfterSeconds: number) {
    super();
  }
}

function config(): NextAuthConfig {
  const e = env();
  const providers: NextAuthConfig["providers"] = [
    Credentials({
      credentials: { email: {}, password: {} },
      // The one password check, whichever way the credentials came: the console's sign-in route
      // (through signIn() below) or a form post to Auth.js's own /api/auth/callback/credentials.
      // The pair is keyed on the address server.ts saw (./client-ip.ts), never on a field.
      authorize: async (c, request) => {
        const fields = SignInFields.safeParse(c);
        if (!fields.success) return null;
        const attempt = await attemptSignIn({ ...fields.data, ip: clientIp(request) });
        if (attempt.outcome === "locked") {
          countRateLimited("sign_in");
          throw new SignInLocked(attempt.retryAfterSeconds);
        }
        return attempt.outcome === "signed_in" ? attempt.user : null;
      },
    }),
  ];
  if (oidcConfigured()) {
    providers.push({
      id: "oidc",
      name: "SSO",
      type: "oidc",
      issuer: e.OIDC_ISSUER,
      clientId: e.OIDC_CLIENT_ID,
      clientSecret: e.OIDC_CLIENT_SECRET,
    });
  }
  return {
    secret: authSecret(e),
    // The host Auth.js sees is the base URL server.ts and authJsRoute put in (lib/http/base-url.ts),
    // not one a client chose, so there is nothing left for Auth.js's own host check to refuse.
    trustHost: true,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/login", error: "/login" },
    providers,
    callbacks: {
      // Every callbackUrl and redirectTo: a path of this site only (never another origin).
      redirect: ({ url, baseUrl }) => `${baseUrl}${safeNext(url, baseUrl)}`,
      // SSO: only people who are already members get in.
      signIn: async ({ account, profile, user }) =>
        account?.provider !== "oidc" || Boolean(await memberByEmail(profile?.email ?? user.email)),
      // At sign-in (either provider) a stored session starts; the token carries its id.
      jwt: async ({ token, user, account, profile }) => {
        if (!user) return token;
        const userId = account?.provider === "oidc" ? (await memberByEmail(profile?.email ?? user.email))?.id : user.id;
        if (!userId) return null;
        return { ...token, sub: userId, uid: userId, sid: await startSession({ userId }) };
      },
      // What auth() gives the server (lib/http/console.ts checks the stored session). Auth.js's own
      // session endpoint strips the ids again (authJsRoute).
      session: async ({ session, token }) => Object.assign(session, { uid: token.uid, sid: token.sid }),
    },
    events: {
      // Any sign-out (the console's route or Auth.js's own endpoint) ends the stored session.
      signOut: async (message) => {
        const sid = "token" in message ? message.token?.sid : undefined;
        if (typeof sid === "string") await endSession(sid);
      },
    },
    logger: {
      // A wrong password is an answer, not an error of the service; the route logs its outcome.
      error: (err) => {
        if ((err as { type?: string }).type !== "CredentialsSignin")
          log.warn({ err: { name: err.name, message: err.message } }, "auth error");
      },
      warn: (code) => log.warn({ code }, "auth warning"),
      debug: () => {},
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(async () => config());

/** Auth.js's own test of a callback URL (@auth/core assertConfig): http(s), absolute or a path. */
function validCallbackUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value, value.startsWith("/") ? "http://localhost" : undefined).protocol);
  } catch {
    return false;
  }
}

const CALLBACK_COOKIES = ["authjs.callback-url", "__Secure-authjs.callback-url"];

/**
 * Auth.js's endpoints (app/api/auth/[...nextauth]). Auth.js builds every address it hands out
 * (redirects, SSO's redirect_uri, its providers list) from the request's URL, which Next makes from
 * the listen address (http://0.0.0.0:PORT): the URL is rebuilt on the base URL first, the one the
 * API's links and the same-origin check use. Auth.js answers a `callbackUrl` query parameter, or
 * callback-url cookie, that is not an http(s) URL with a 500 ("server configuration"): refused here
 * first, 400 in the error envelope. The route's contract says so (app/api/auth/[...nextauth]/contract.ts).
 */
export function authJsRoute(contract: RouteContract, handler: (req: NextRequest) => Promise<Response>) {
  expectAuth(contract, "consoleOpen");
  return (original: NextRequest): Promise<Response> => {
    // A plain Request: NextRequest would write 127.0.0.1 and [::1] as "localhost" in its URL.
    const url = new URL(`${original.nextUrl.pathname}${original.nextUrl.search}`, baseUrl(original));
    const init = { method: original.method, headers: original.headers, body: original.body, duplex: "half" };
    const req = new Request(url, init as RequestInit) as NextRequest;
    const query = original.nextUrl.searchParams.get("callbackUrl");
    const cookie = CALLBACK_COOKIES.map((name) => original.cookies.get(name)?.value).find(Boolean);
    for (const [field, value] of [
      ["callbackUrl", query],
      ["callback-url cookie", cookie],
    ] as const) {
      if (value && !validCallbackUrl(value)) {
        const message = "must be an http(s) URL or a path";
        const err = new ApiError("invalid_request", `Invalid ${field}: ${message}.`, { fields: [{ field, message }] });
        return Promise.resolve(errorResponse(err, newId("req")));
      }
    }
    const answer = handler(req);
    return original.method === "GET" && original.nextUrl.pathname === "/api/auth/session"
      ? answer.then(liveSessionOnly)
      : answer;
  };
}

/**
 * Auth.js's session endpoint reads the token alone: it answers for a live stored session only
 * (null once signed out, as every console route does) and without the session's ids.
 */
async function liveSessionOnly(res: Response): Promise<Response> {
  const body = res.ok ? ((await res.clone().json()) as { uid?: unknown; sid?: unknown } | null) : null;
  if (!body) return res;
  const { uid, sid, ...visible } = body;
  const live =
    typeof uid === "string" && typeof sid === "string" && (await sessionUser({ userId: uid, sessionId: sid }));
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  // No refreshed cookie for a session that has ended.
  if (!live) headers.delete("set-cookie");
  return new Response(JSON.stringify(live ? visible : null), { status: res.status, headers });
}
