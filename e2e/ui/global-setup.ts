// One production server on a fresh database for the browser tests, with two organizations and a
// signed-in browser state for each kind of user. Organizations are made with the admin CLI's
// services before the server starts (the embedded database allows one process at a time); members
// join through the console's own invitations.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { request, type APIRequestContext, type FullConfig } from "@playwright/test";
import { bootstrapOrg, freshTarget, startServer } from "../api/server";

export const PASSWORD = "correct horse battery";
const root = path.resolve(import.meta.dirname, "../..");
/** Per run: parallel runs of one checkout (UI_RUN_DIR) must not share their context files. */
export const UI_DIR = process.env.UI_RUN_DIR ?? path.join(root, "test-results/ui");

export interface UiUser {
  email: string;
  state: string;
}

export interface UiContext {
  baseUrl: string;
  password: string;
  orgA: { organization_id: string; user_token: string };
  orgB: { organization_id: string; user_token: string };
  users: { adminA: UiUser; supportA: UiUser; adminB: UiUser; multi: UiUser };
  /** The server's PostgreSQL database (absent: embedded, which admits one process). */
  databaseUrl?: string;
  /** The server's TEST_CLOCK_FILE: milliseconds its key clock runs ahead (fixtures.ts setServerClockAhead). */
  clockFile: string;
}

async function signedIn(baseUrl: string, email: string, file: string) {
  const ctx = await request.newContext({ baseURL: baseUrl, extraHTTPHeaders: { origin: baseUrl } });
  const res = await ctx.post("/api/console/auth/sign-in", { data: { email, password: PASSWORD } });
  if (!res.ok()) throw new Error(`sign-in of ${email}: ${res.status()} ${await res.text()}`);
  await ctx.storageState({ path: file });
  return ctx;
}

/**
 * `admin` invites `email`; the invitation is accepted signed out with PASSWORD (a new account), or
 * by `member`, a context signed in as an existing account.
 */
async function join(
  baseUrl: string,
  admin: APIRequestContext,
  email: string,
  role: string,
  member?: APIRequestContext,
) {
  const me = await (await admin.get("/api/console/me")).json();
  const invitations = `/api/v1/organizations/${me.organization.organization_id}/invitations`;
  const res = await admin.post(invitations, { data: { email, role } });
  if (res.status() !== 201) throw new Error(`invite ${email}: ${res.status()} ${await res.text()}`);
  const token = new URL((await res.json()).url).pathname.split("/").pop();
  const ctx = member ?? (await request.newContext({ baseURL: baseUrl, extraHTTPHeaders: { origin: baseUrl } }));
  const accepted = await ctx.post("/api/console/invitations/accept", {
    data: member ? { token } : { token, password: PASSWORD },
  });
  if (!accepted.ok()) throw new Error(`accept ${email}: ${accepted.status()} ${await accepted.text()}`);
  if (!member) await ctx.dispose();
}

export default async function globalSetup(_config: FullConfig) {
  mkdirSync(UI_DIR, { recursive: true });
  const { target, dispose } = await freshTarget("ui");
  const orgA = await bootstrapOrg(target, "Acme", "admin-a@ui.test", PASSWORD);
  const orgB = await bootstrapOrg(target, "Globex", "admin-b@ui.test", PASSWORD);
  const clockFile = path.join(UI_DIR, "clock-offset-ms");
  writeFileSync(clockFile, "0");
  const server = await startServer(target, {
    SEED_DEMO: "false",
    KEY_CACHE_TTL_MS: "2000",
    TEST_CLOCK_FILE: clockFile,
    // Alert rules evaluated every second: alerts.spec sees a rule fire and resolve in seconds.
    ALERT_EVALUATION_INTERVAL_MS: "1000",
  });
  const baseUrl = server.baseUrl;

  const file = (name: string) => path.join(UI_DIR, `state-${name}.json`);
  const a = await signedIn(baseUrl, "admin-a@ui.test", file("adminA"));
  const b = await signedIn(baseUrl, "admin-b@ui.test", file("adminB"));
  for (const email of ["support-a@ui.test", "multi@ui.test", "lockout@ui.test", "everywhere@ui.test"]) {
    await join(baseUrl, a, email, "support");
  }
  // multi, who has an account now, accepts Globex's invitation signed in (a context of its own, so
  // that the organization it switches to stays out of the saved state).
  const multi = await signedIn(baseUrl, "multi@ui.test", file("multi-join"));
  await join(baseUrl, b, "multi@ui.test", "admin", multi);
  await multi.dispose();
  await (await signedIn(baseUrl, "support-a@ui.test", file("supportA"))).dispose();
  await (await signedIn(baseUrl, "multi@ui.test", file("multi"))).dispose();
  await a.dispose();
  await b.dispose();

  const context: UiContext = {
    baseUrl,
    password: PASSWORD,
    orgA: { organization_id: orgA.organization_id!, user_token: orgA.user_token! },
    orgB: { organization_id: orgB.organization_id!, user_token: orgB.user_token! },
    users: {
      adminA: { email: "admin-a@ui.test", state: file("adminA") },
      supportA: { email: "support-a@ui.test", state: file("supportA") },
      adminB: { email: "admin-b@ui.test", state: file("adminB") },
      multi: { email: "multi@ui.test", state: file("multi") },
    },
    ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}),
    clockFile,
  };
  writeFileSync(path.join(UI_DIR, "context.json"), JSON.stringify(context, null, 2));
  process.env.UI_BASE_URL = baseUrl;
  process.env.UI_CONTEXT = path.join(UI_DIR, "context.json");

  return async () => {
    await server.stop();
    await dispose();
  };
}
