// Admin CLI: bootstrap idempotence, the other commands, and the embedded database's one-process rule.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_CLI, admin, dbEnv, freshTarget, startServer, type DbTarget } from "./server";

let target: DbTarget;
let dispose = async () => {};
beforeAll(async () => {
  ({ target, dispose } = await freshTarget("cli"));
});
afterAll(() => dispose());

const root = path.resolve(import.meta.dirname, "../..");
async function adminRaw(args: string[]) {
  return promisify(execFile)(process.execPath, [...ADMIN_CLI, ...args], {
    cwd: root,
    env: { ...process.env, ...dbEnv(target) },
  }).then(
    (r) => ({ code: 0, ...r }),
    (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }),
  );
}

describe("admin CLI", () => {
  it("bootstrap is idempotent: same ids, a fresh working token, one JSON line", async () => {
    const args = ["bootstrap", "--org", "Idem", "--email", "Owner@Example.com", "--password", "long-password"];
    const first = await adminRaw([...args, "--json"]);
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split("\n")).toHaveLength(1);
    const a = JSON.parse(first.stdout);
    expect(Object.keys(a).sort()).toEqual(["organization_id", "project_id", "user_id", "user_token"]);
    expect(a.organization_id).toMatch(/^org_/);
    expect(a.project_id).toMatch(/^proj_/);
    expect(a.user_token).toMatch(/^ut_[0-9A-Za-z]{43}$/);
    const b = await admin(target, args);
    expect({ ...b, user_token: "" }).toEqual({ ...a, user_token: "" });
    expect(b.user_token).not.toBe(a.user_token);
  });

  it("create-user, create-token, create-agent, mint-key and revoke-key work together", async () => {
    const org = await admin(target, [
      "bootstrap",
      "--org",
      "Cmds",
      "--email",
      "cmds@example.com",
      "--password",
      "long-password",
    ]);
    const user = await admin(target, [
      "create-user",
      "--org",
      "Cmds",
      "--email",
      "sup@example.com",
      "--password",
      "long-password",
      "--role",
      "support",
    ]);
    expect(user).toMatchObject({ organization_id: org.organization_id, role: "support" });
    const token = await admin(target, ["create-token", "--email", "sup@example.com"]);
    expect(token.user_token).toMatch(/^ut_/);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "agent-")), "agent.json");
    writeFileSync(file, JSON.stringify({ name: "from file", kind: "conversational", runtime: { type: "echo" } }));
    const agent = await admin(target, ["create-agent", "--org", org.organization_id!, "--file", file]);
    expect(agent).toMatchObject({ name: "from file", kind: "conversational", organization_id: org.organization_id });
    const key = await admin(target, ["mint-key", "--org", "Cmds", "--name", "ops", "--permissions", "agents:invoke"]);
    expect(key.key).toMatch(/^ak_/);
    const revoked = await admin(target, ["revoke-key", "--org", "Cmds", "--key", key.key_id!]);
    expect(revoked.revoked_at).toBeTruthy();
  });

  it("mint-key takes an expiry and an agent scope; roll-key mints the successor and keeps the old key for the grace", async () => {
    await admin(target, ["bootstrap", "--org", "Rolls", "--email", "rolls@example.com", "--password", "long-password"]);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "agent-")), "agent.json");
    writeFileSync(file, JSON.stringify({ name: "scoped", kind: "conversational", runtime: { type: "echo" } }));
    const agent = await admin(target, ["create-agent", "--org", "Rolls", "--file", file]);
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const key = await admin(target, [
      "mint-key",
      "--org",
      "Rolls",
      "--name",
      "ops",
      "--expires-at",
      expiresAt,
      "--agents",
      agent.agent_id!,
    ]);
    expect(key).toMatchObject({ expires_at: expiresAt, agent_ids: [agent.agent_id] });
    const rolled = await admin(target, ["roll-key", "--org", "Rolls", "--key", key.key_id!, "--grace", "3600"]);
    expect(rolled.key).toMatch(/^ak_/);
    expect(rolled).toMatchObject({ name: "ops", rolled_from_key_id: key.key_id, agent_ids: [agent.agent_id] });
    const again = await adminRaw(["roll-key", "--org", "Rolls", "--key", key.key_id!, "--grace", "3600"]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("already rolled");
  });

  it("set-secret reads the value from standard input; agents name it, and an unknown name is refused", async () => {
    const org = await admin(target, [
      "bootstrap",
      "--org",
      "Sec",
      "--email",
      "sec@example.com",
      "--password",
      "pw-12345678",
    ]);
    const run = (args: string[], input: string) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          [...ADMIN_CLI, ...args],
          { cwd: root, env: { ...process.env, ...dbEnv(target) } },
          (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
        );
        child.stdin!.end(input);
      });
    const set = await run(
      ["set-secret", "--org", "Sec", "--name", "openai-prod", "--json"],
      "sk-from-stdin-0123456789\n",
    );
    expect(set.code, set.stderr).toBe(0);
    const secret = JSON.parse(set.stdout);
    expect(secret).toMatchObject({ name: "openai-prod", hint: "6789" });
    expect(set.stdout).not.toContain("sk-from-stdin");
    const runtime = { type: "openai", base_url: "https://api.openai.com/v1", model: "m" };
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "agent-")), "agent.json");
    writeFileSync(
      file,
      JSON.stringify({ name: "llm", kind: "conversational", runtime: { ...runtime, api_key_secret: "openai-prod" } }),
    );
    const agent = await admin(target, ["create-agent", "--org", org.organization_id!, "--file", file]);
    expect((agent as unknown as { runtime: { api_key_secret: string } }).runtime.api_key_secret).toBe("openai-prod");
    writeFileSync(
      file,
      JSON.stringify({ name: "llm", kind: "conversational", runtime: { ...runtime, api_key_secret: "nope" } }),
    );
    const refused = await adminRaw(["create-agent", "--org", org.organization_id!, "--file", file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("runtime.api_key_secret");
    const empty = await run(["set-secret", "--org", "Sec", "--name", "blank"], "\n");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("must not be empty");
  });

  it("exits 2 with usage on a bad command and 1 with a clear message on bad input", async () => {
    const usage = await adminRaw(["frobnicate"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("usage: npm run admin");
    const missing = await adminRaw(["mint-key", "--org", "NoSuchOrg", "--name", "x"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No organization NoSuchOrg");
    const badAgent = path.join(mkdtempSync(path.join(os.tmpdir(), "agent-")), "agent.json");
    writeFileSync(badAgent, JSON.stringify({ name: "x", kind: "workflow", runtime: { type: "echo" } }));
    await admin(target, ["bootstrap", "--org", "Bad", "--email", "bad@example.com", "--password", "long-password"]);
    const invalid = await adminRaw(["create-agent", "--org", "Bad", "--file", badAgent]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("workflow");
  });

  it.runIf(!process.env.TEST_DATABASE_URL)(
    "refuses to open the embedded database while the server holds it",
    async () => {
      const server = await startServer(target, { SEED_DEMO: "false" });
      try {
        const res = await adminRaw([
          "bootstrap",
          "--org",
          "Locked",
          "--email",
          "l@example.com",
          "--password",
          "long-password",
        ]);
        expect(res.code).toBe(1);
        expect(res.stderr).toMatch(/in use by process \d+/);
        expect(res.stderr).toContain("stop that process first");
      } finally {
        await server.stop();
      }
      // Once the server is stopped, the CLI works again on the same data.
      const ok = await admin(target, [
        "bootstrap",
        "--org",
        "Locked",
        "--email",
        "l@example.com",
        "--password",
        "long-password",
      ]);
      expect(ok.organization_id).toMatch(/^org_/);
    },
  );
});
