// One real server on a fresh database for the API tests: embedded PGlite in a temp folder, or a
// new PostgreSQL database when TEST_DATABASE_URL is set. Organizations are made with the admin CLI
// before the server starts (the embedded database allows one process at a time).
import type { TestProject } from "vitest/node";
import { admin, freshTarget, startServer, type DbTarget } from "./server";

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
  const { target, dispose } = await freshTarget("api");
  const password = "correct horse battery";
  const orgA = (await admin(target, [
    "bootstrap",
    "--org",
    "Org A",
    "--email",
    "admin-a@example.com",
    "--password",
    password,
  ])) as ApiTestContext["orgA"];
  const orgB = (await admin(target, [
    "bootstrap",
    "--org",
    "Org B",
    "--email",
    "admin-b@example.com",
    "--password",
    password,
  ])) as ApiTestContext["orgB"];
  await admin(target, [
    "create-user",
    "--org",
    orgA.organization_id,
    "--email",
    "support-a@example.com",
    "--password",
    password,
    "--role",
    "support",
  ]);
  const supportA = (await admin(target, [
    "create-token",
    "--email",
    "support-a@example.com",
  ])) as ApiTestContext["supportA"];

  const server = await startServer(target, { SEED_DEMO: "false", KEY_CACHE_TTL_MS: "2000" });
  project.provide("api", { baseUrl: server.baseUrl, logFile: server.logFile, target, orgA, orgB, supportA });

  return async () => {
    await server.stop();
    await dispose();
  };
}
