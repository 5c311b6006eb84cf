// Retention from outside (docs/api.md "Retention", docs/deploy.md "Data that grows"): the setting in
// the management API and the console API (validation, roles, another organization, the audit row),
// and the worker's sweep deleting what a new setting expires, stored files included.
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { storageKeyFor } from "../../lib/files/upload";
import { orgPath, PASSWORD, signIn } from "./console";
import { call, ctx, expectError } from "./helpers";
import { storedBytes } from "./s3-server";
import { ownServer, type DbTarget, type OwnServer } from "./server";

const retentionPath = (org: string) => `/api/v1/organizations/${org}/retention`;

/** The first field an invalid_request names. */
const fieldOf = (res: { body: any }) => res.body.error.details.fields[0].field as string;

describe("retention in the management API", () => {
  it("answers the setting, the default, what applies and the oldest record of each kind", async () => {
    const { orgA } = ctx();
    const res = await call("GET", retentionPath(orgA.organization_id), { auth: orgA.user_token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ retention_days: null, default_retention_days: 0, effective_days: 0 });
    expect(Object.keys(res.body.oldest).sort()).toEqual([
      "audit",
      "deliveries",
      "evaluations",
      "runs",
      "sessions",
      "uploads",
    ]);
    expect(res.body).not.toHaveProperty("preview");
  });

  it("previews what a retention would delete, counted by the server", async () => {
    const { orgA } = ctx();
    const res = await call("GET", `${retentionPath(orgA.organization_id)}?preview_days=30`, { auth: orgA.user_token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.preview.retention_days).toBe(30);
    // The suite's history is minutes old: nothing is older than 30 days.
    expect(res.body.preview.counts).toEqual({
      sessions: 0,
      runs: 0,
      uploads: 0,
      deliveries: 0,
      audit: 0,
      evaluations: 0,
    });
    const cutoff = Date.parse(res.body.preview.cutoff);
    expect(Math.abs(cutoff - (Date.now() - 30 * 86_400_000))).toBeLessThan(5 * 60_000);
  });

  it.each([
    ["a negative number", { retention_days: -1 }, "retention_days"],
    ["more than ten years", { retention_days: 3651 }, "retention_days"],
    ["a fraction", { retention_days: 1.5 }, "retention_days"],
    ["a string", { retention_days: "30" }, "retention_days"],
    ["nothing", {}, "retention_days"],
    // An unknown key is the body's fault (docs/api.md, Validation messages): its message names it.
    ["an unknown field", { retention_days: 30, keep: "all" }, "(root)"],
  ])("refuses %s with 400 invalid_request naming the field", async (_label, body, field) => {
    const { orgA } = ctx();
    const res = await call("PATCH", retentionPath(orgA.organization_id), { auth: orgA.user_token, body });
    expectError(res, 400, "invalid_request");
    expect(fieldOf(res)).toBe(field);
    expect(res.body.error.message).toContain(field === "(root)" ? "keep" : field);
    const still = await call("GET", retentionPath(orgA.organization_id), { auth: orgA.user_token });
    expect(still.body.retention_days).toBeNull();
  });

  it("refuses a preview of an impossible retention with 400 naming preview_days", async () => {
    const { orgA } = ctx();
    for (const q of ["abc", "-1", "3651", "1.5"]) {
      const res = await call("GET", `${retentionPath(orgA.organization_id)}?preview_days=${q}`, {
        auth: orgA.user_token,
      });
      expectError(res, 400, "invalid_request");
      expect(fieldOf(res)).toBe("preview_days");
    }
  });

  it("a support member reads it and may not set it (403 forbidden); another organization's admin gets 404", async () => {
    const { orgA, orgB, supportA } = ctx();
    const org = orgA.organization_id;
    const s = { auth: supportA.user_token };
    const seen = await call("GET", retentionPath(org), s);
    expect(seen.status, seen.text).toBe(200);
    expectError(await call("PATCH", retentionPath(org), { ...s, body: { retention_days: 1 } }), 403, "forbidden");
    const b = { auth: orgB.user_token };
    expectError(await call("GET", retentionPath(org), b), 404, "organization_not_found");
    expectError(
      await call("PATCH", retentionPath(org), { ...b, body: { retention_days: 1 } }),
      404,
      "organization_not_found",
    );
    const still = await call("GET", retentionPath(org), { auth: orgA.user_token });
    expect(still.body.retention_days).toBeNull();
  });

  it("sets, keeps forever and follows the default again, each change audited before and after", async () => {
    const { orgA } = ctx();
    const a = { auth: orgA.user_token };
    const org = orgA.organization_id;
    const set = await call("PATCH", retentionPath(org), { ...a, body: { retention_days: 3650 } });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ retention_days: 3650, effective_days: 3650, default_retention_days: 0 });
    const forever = await call("PATCH", retentionPath(org), { ...a, body: { retention_days: 0 } });
    expect(forever.body).toMatchObject({ retention_days: 0, effective_days: 0 });
    const back = await call("PATCH", retentionPath(org), { ...a, body: { retention_days: null } });
    expect(back.body).toMatchObject({ retention_days: null, effective_days: 0 });

    const admin = await signIn("admin-a@example.com");
    const audit = await admin.call("GET", orgPath("/audit?action=retention.updated&limit=10"));
    expect(audit.status, audit.text).toBe(200);
    const changes = audit.body.events.slice(0, 3).map((e: any) => e.data);
    expect(changes).toEqual([
      { before: 0, after: null },
      { before: 3650, after: 0 },
      { before: null, after: 3650 },
    ]);
    expect(audit.body.events[0]).toMatchObject({
      actor: { type: "user", id: orgA.user_id },
      target: { type: "organization", id: org },
    });
  });
});

describe("retention from the console (its session cookie on the organization API)", () => {
  const retention = () => `/api/v1/organizations/${ctx().orgA.organization_id}/retention`;

  it("an admin reads and sets it; a support member reads it and may not set it", async () => {
    const admin = await signIn("admin-a@example.com");
    const read = await admin.call("GET", `${retention()}?preview_days=7`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ retention_days: null, default_retention_days: 0, effective_days: 0 });
    expect(read.body.preview.retention_days).toBe(7);

    const bad = await admin.call("PATCH", retention(), { retention_days: 0.5 });
    expectError(bad, 400, "invalid_request");
    expect(fieldOf(bad)).toBe("retention_days");
    const set = await admin.call("PATCH", retention(), { retention_days: 3650 });
    expect(set.status, set.text).toBe(200);
    expect(set.body.effective_days).toBe(3650);

    const support = await signIn("support-a@example.com");
    const seen = await support.call("GET", retention());
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.retention_days).toBe(3650);
    expectError(await support.call("PATCH", retention(), { retention_days: null }), 403, "forbidden");

    const reset = await admin.call("PATCH", retention(), { retention_days: null });
    expect(reset.body.retention_days).toBeNull();
  });

  it("refuses a cross-site write (the console's same-origin rule)", async () => {
    const admin = await signIn("admin-a@example.com");
    const res = await admin.call("PATCH", retention(), { retention_days: 1 }, { origin: "https://attacker.example" });
    expect(res.status).toBe(403);
    const still = await admin.call("GET", retention());
    expect(still.body.retention_days).toBeNull();
  });
});

/** SQL on the own server's database: PostgreSQL while it runs, the embedded one only once it stopped. */
async function sql(target: DbTarget, text: string, params: unknown[] = []): Promise<any[]> {
  if (target.databaseUrl) {
    const c = new pg.Client({ connectionString: target.databaseUrl });
    await c.connect();
    try {
      return (await c.query(text, params)).rows;
    } finally {
      await c.end();
    }
  }
  const db = new PGlite(path.join(target.dataDir, "pglite"));
  try {
    return (await db.query(text, params)).rows as any[];
  } finally {
    await db.close();
  }
}

describe("the sweep applies a new retention", () => {
  let own: OwnServer | undefined;
  afterAll(async () => own?.dispose());

  it("deletes the history older than the new setting with its stored files, keeps the rest, audits it", async () => {
    own = await ownServer("retention");
    const org = own.org.organization_id;
    const key = await own.mintKey();
    const agent = await own.createAgent({ name: "echo", kind: "conversational", runtime: { type: "echo" } });

    // History: two sessions and two uploaded files; one of each will be made 3 days old.
    const trigger = async () => {
      const res = await own!.call("POST", `/api/agents/webhook/${agent}`, { auth: key, body: { message: "hi" } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.session_id as string;
    };
    const upload = async (name: string) => {
      const form = new FormData();
      form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), name);
      const res = await fetch(`${own!.server.baseUrl}/api/agents/${agent}/upload`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: form,
      });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body.file_id as string;
    };
    const [oldSession, youngSession] = [await trigger(), await trigger()];
    const [oldFile, youngFile] = [await upload("old.csv"), await upload("young.csv")];
    const stored = (fileId: string) => storageKeyFor({ organizationId: org, agentId: agent, fileId });
    expect(await storedBytes(own.target, stored(oldFile))).toBeDefined();

    const set = await own.call("PATCH", retentionPath(org), {
      auth: own.org.user_token,
      body: { retention_days: 1 },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);

    // Age one of each by three days while the server is down (the embedded database has one
    // process); the sweep runs when the worker starts.
    await own.server.stop();
    const threeDays = "(now() AT TIME ZONE 'UTC') - interval '3 days'";
    await sql(
      own.target,
      `UPDATE sessions SET created_at = ${threeDays}, last_message_at = ${threeDays} WHERE id = $1`,
      [oldSession],
    );
    await sql(own.target, `UPDATE messages SET created_at = ${threeDays} WHERE session_id = $1`, [oldSession]);
    await sql(own.target, `UPDATE files SET created_at = ${threeDays} WHERE id = $1`, [oldFile]);
    await own.restart("SIGTERM");

    const deadline = Date.now() + 60_000;
    let kept: any;
    for (;;) {
      kept = (await own.call("GET", retentionPath(org), { auth: own.org.user_token })).body;
      if (Date.parse(kept.oldest.sessions) > Date.now() - 86_400_000 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(kept.effective_days).toBe(1);
    expect(Date.parse(kept.oldest.sessions)).toBeGreaterThan(Date.now() - 86_400_000);
    expect(Date.parse(kept.oldest.uploads)).toBeGreaterThan(Date.now() - 86_400_000);

    // Gone, from outside: the old session and its messages, the old file and its bytes.
    const sessionOf = (id: string) => own!.call("GET", `/api/agents/${agent}/sessions/${id}`, { auth: key });
    expect((await sessionOf(oldSession)).status).toBe(404);
    expect((await sessionOf(youngSession)).status).toBe(200);
    expect(await storedBytes(own.target, stored(oldFile))).toBeUndefined();
    expect(await storedBytes(own.target, stored(youngFile))).toBeDefined();

    // One audit row for the sweep, with what it deleted.
    const admin = await signIn(`retention@example.com`, PASSWORD, own.server.baseUrl);
    const audit = await admin.call("GET", orgPath("/audit?action=retention.swept", own.org.organization_id));
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.events).toHaveLength(1);
    expect(audit.body.events[0]).toMatchObject({
      actor: { type: "system" },
      data: {
        retention_days: 1,
        deleted: { sessions: 1, runs: 0, uploads: 1, deliveries: 0, audit: 0, evaluations: 0 },
      },
    });
  });
});
