// One production server on a fresh database for the browser tests, with two organizations and a
// signed-in browser state for each kind of user. Organizations are made with the admin CLI before
// the server starts (the embedded database allows one process at a time); members are added
// through the dashboard's own API.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { request, type FullConfig } from "@playwright/test";
import { admin, freshTarget, startServer } from "../api/server";

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
}

async function signedIn(baseUrl: string, email: string, file: string) {
  const ctx = await request.newContext({ baseURL: baseUrl, extraHTTPHeaders: { origin: baseUrl } });
  const res = await ctx.post("/api/console/auth/sign-in", { data: { email, password: PASSWORD } });
  if (!res.ok()) throw new Error(`sign-in of ${email}: ${res.status()} ${await res.text()}`);
  await ctx.storageState({ path: file });
  return ctx;
}

export default async function globalSetup(_config: FullConfig) {
  mkdirSync(UI_DIR, { recursive: true });
  const { target, dispose } = await freshTarget("ui");
  const orgA = await admin(target, [
    "bootstrap",
    "--org",
    "Acme",
    "--email",
    "admin-a@ui.test",
    "--password",
    PASSWORD,
  ]);
  const orgB = await admin(target, [
    "bootstrap",
    "--org",
    "Globex",
    "--email",
    "admin-b@ui.test",
    "--password",
    PASSWORD,
  ]);
  const server = await startServer(target, { SEED_DEMO: "false", KEY_CACHE_TTL_MS: "2000" });
  const baseUrl = server.baseUrl;

  const file = (name: string) => path.join(UI_DIR, `state-${name}.json`);
  const a = await signedIn(baseUrl, "admin-a@ui.test", file("adminA"));
  const b = await signedIn(baseUrl, "admin-b@ui.test", file("adminB"));
  for (const [ctx, body] of [
    [a, { email: "support-a@ui.test", role: "support", password: PASSWORD }],
    [a, { email: "multi@ui.test", role: "support", password: PASSWORD }],
    [a, { email: "lockout@ui.test", role: "support", password: PASSWORD }],
    [a, { email: "everywhere@ui.test", role: "support", password: PASSWORD }],
    [b, { email: "multi@ui.test", role: "admin" }],
  ] as const) {
    const res = await ctx.post("/api/console/members", { data: body });
    if (res.status() !== 201) throw new Error(`add member: ${res.status()} ${await res.text()}`);
  }
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
  };
  writeFileSync(path.join(UI_DIR, "context.json"), JSON.stringify(context, null, 2));
  process.env.UI_BASE_URL = baseUrl;
  process.env.UI_CONTEXT = path.join(UI_DIR, "context.json");

  return async () => {
    await server.stop();
    await dispose();
  };
}
