// One real server on a fresh database for the API tests: embedded PGlite in a temp folder, or a
// new PostgreSQL database when TEST_DATABASE_URL is set. Organizations are made by the CLI's services
// (in this process) before the server starts (the embedded database allows one process at a time).
import type { TestProject } from "vitest/node";
import { startS3Server, type S3TestServer } from "./s3-server";
import { freshTarget, startServer, withTargetDatabase, type DbTarget } from "./server";

export interface ApiTestContext {
  baseUrl: string;
  logFile: string;
  target: DbTarget;
  orgA: { organization_id: string; project_id: string; user_id: string; user_token: string };
  orgB: { organization_id: string; project_id: string; user_id: string; user_token: string };
  supportA: { user_id: string; user_token: string };
}

declare module "vitest" {
  export interface ProvidedContext {
    api: ApiTestContext;
  }
}

export default async function setup(project: TestProject) {
  // TEST_STORAGE=s3 (scripts/test.mjs's S3 pass): a local S3-compatible server, and every server
  // the suites start stores its files there (e2e/api/s3-server.ts storageEnv). Set before the test
  // workers start, so that they and the servers they start inherit it.
  let s3: S3TestServer | undefined;
  if (process.env.TEST_STORAGE === "s3") {
    s3 = await startS3Server();
    const { STORAGE_URL, ...aws } = s3.env("suites");
    Object.assign(process.env, aws, { TEST_S3_STORAGE_URL: STORAGE_URL });
  }
  const { target, dispose } = await freshTarget("api");
  const { orgA, orgB, supportA } = await withTargetDatabase(target, async () => {
    const { bootstrap, ensureUser } = await import("../../lib/orgs/service");
    const { createUserToken } = await import("../../lib/auth/user-tokens");
    const password = "correct horse battery";
    const orgA = await bootstrap({ org: "Org A", email: "admin-a@example.com", password });
    const orgB = await bootstrap({ org: "Org B", email: "admin-b@example.com", password });
    const support = await ensureUser({
      organizationId: orgA.organization_id,
      email: "support-a@example.com",
      password,
      role: "support",
    });
    const token = await createUserToken({ userId: support.id, name: "cli" });
    return { orgA, orgB, supportA: { user_id: support.id, user_token: token.token } };
  });

  // The key roll sweep every second (30 s by default): key-lifecycle waits for its audit row.
  const server = await startServer(target, { SEED_DEMO: "false", KEY_CACHE_TTL_MS: "2000", KEY_ROLL_SWEEP_MS: "1000" });
  project.provide("api", { baseUrl: server.baseUrl, logFile: server.logFile, target, orgA, orgB, supportA });

  return async () => {
    await server.stop();
    await dispose();
    await s3?.close();
  };
}
