// First start on an empty database: admin, organization, project, token, demo agents, instructions.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshTarget, startServer, type DbTarget, type RunningServer } from "./server";

let target: DbTarget;
let dispose = async () => {};
let server: RunningServer | undefined;
beforeAll(async () => {
  ({ target, dispose } = await freshTarget("first"));
});
afterAll(async () => {
  await server?.stop();
  await dispose();
});

describe("first start", () => {
  it("seeds an admin, org, project, token and two demo agents once, and prints how to try the API", async () => {
    server = await startServer(target, { ADMIN_PASSWORD: "first-start-pw", ADMIN_EMAIL: "owner@example.com" });
    const out = readFileSync(server.logFile, "utf8");
    expect(out).toContain("first start");
    expect(out).toContain("owner@example.com");
    expect(out).not.toContain("first-start-pw"); // a password from the environment is not echoed
    const token = /user token\s+(ut_[0-9A-Za-z]{43})/.exec(out)?.[1];
    const org = /organization\s+(org_[0-9A-Za-z]+)/.exec(out)?.[1];
    expect(token && org).toBeTruthy();
    expect(out).toContain(`/api/v1/organizations/${org}/access-keys`);

    const agents = await fetch(`${server.baseUrl}/api/v1/organizations/${org}/agents`, {
      headers: { authorization: `Bearer ${token}` },
    }).then((r) => r.json());
    expect(agents.agents.map((a: any) => a.kind).sort()).toEqual(["conversational", "workflow"]);
    expect(agents.agents.find((a: any) => a.kind === "conversational").runtime.type).toBe("echo");

    // A restart does not seed again.
    await server.stop();
    server = await startServer(target, {});
    expect(readFileSync(server.logFile, "utf8")).not.toContain("first start");
  });

  it("sends a signed-out visitor of / to the console's sign-in page", async () => {
    const res = await fetch(`${server!.baseUrl}/`, { redirect: "manual" });
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toMatch(/\/login\?next=%2F$/);
    const login = await fetch(`${server!.baseUrl}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("Sign in to the console");
  });

  it("prints the console URL and a generated admin password that signs in", async () => {
    const fresh = await freshTarget("first-pw");
    const own = await startServer(fresh.target, { ADMIN_EMAIL: "generated@example.com" });
    try {
      const out = readFileSync(own.logFile, "utf8");
      const line = /console\s+(\S+)\s+sign in as generated@example\.com, password: (\S+)/.exec(out);
      expect(line, out).toBeTruthy();
      expect(line![1]).toMatch(/^http:\/\/localhost:\d+\/$/);
      const signIn = (password: string) =>
        fetch(`${own.baseUrl}/api/console/auth/sign-in`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: own.baseUrl },
          body: JSON.stringify({ email: "generated@example.com", password }),
        });
      expect((await signIn("not-it")).status).toBe(401);
      const ok = await signIn(line![2]!);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("set-cookie")).toMatch(/session-token=.*HttpOnly.*SameSite=lax/i);
    } finally {
      await own.stop();
      await fresh.dispose();
    }
  });
});
