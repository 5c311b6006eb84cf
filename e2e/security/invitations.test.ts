// Threat model rows "member enrolment / account enumeration" and "outgoing email", attacked from
// outside over HTTP: an admin of one organization must not be able to make anyone a member without
// their consent, nor learn whether an email has an account; an invitation link works once, for its
// email, for 7 days, until revoked; invitations are their organization's admins' only; emails carry
// links to PUBLIC_URL, never fail an invitation, and no token or SMTP password reaches the logs.
import { readFileSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  acceptAsNew,
  addMember,
  consoleSession,
  cookiesOf,
  inOrg,
  invite,
  PASSWORD,
  signIn,
  tokenOf,
  type ConsoleSession,
} from "../api/console";
import { ctx, expectError } from "../api/helpers";
import { ownServer, type OwnServer } from "../api/server";
import { startSmtpServer, type SmtpTestServer } from "../api/smtp-server";
import { withDb } from "../reliability/crash-helpers";

const stamp = `${Date.now()}${Math.floor(Math.random() * 1e4)}`;
let n = 0;
const fresh = (what: string) => `${what}-${stamp}-${++n}@example.com`;

let adminA: ConsoleSession;
let adminB: ConsoleSession;
let supportA: ConsoleSession;
/** Tokens handed out by the suites' server: none may reach its log. */
const tokens: string[] = [];

const memberEmails = async (admin: ConsoleSession) =>
  ((await admin.call("GET", await inOrg(admin, "/members"))).body.members as { email: string }[]).map((m) => m.email);

const accept = (session: ConsoleSession, token: string, extra: Record<string, string> = {}) =>
  session.call("POST", "/api/console/invitations/accept", { token, ...extra });

async function inviteToken(admin: ConsoleSession, email: string, role = "support") {
  const answer = await invite(admin, email, role);
  const token = tokenOf(answer.url);
  tokens.push(token);
  return { ...answer, token };
}

/** A user of org B only (an account that exists, elsewhere than org A). */
async function userOfB() {
  const email = fresh("b-user");
  const userId = await addMember(adminB, email);
  return { email, userId, session: await signIn(email) };
}

beforeAll(async () => {
  adminA = await signIn("admin-a@example.com");
  adminB = await signIn("admin-b@example.com");
  supportA = await signIn("support-a@example.com");
});

describe("T-ENROL-1 no membership without the invited person's consent", () => {
  it("adding a member directly is gone: POST .../members enrols nobody and tells nothing", async () => {
    // admin-b has an account (in org B); the other email has none.
    const answers = [];
    for (const body of [
      { email: "admin-b@example.com", role: "admin" },
      { email: fresh("unknown"), role: "admin" },
      { email: fresh("unknown"), role: "admin", password: "attacker-chosen-password" },
    ]) {
      const res = await adminA.call("POST", await inOrg(adminA, "/members"), body);
      expect(res.text, "the answer names the account").not.toContain(ctx().orgB.user_id);
      answers.push(res);
    }
    expect(await memberEmails(adminA)).not.toContain("admin-b@example.com");
    const me = await adminB.call("GET", "/api/console/me");
    expect(me.body.organizations.map((o: { name: string }) => o.name)).toEqual(["Org B"]);
    for (const res of answers) expectError(res, 405, "method_not_allowed");
  });

  it("an invitation makes no membership until the invited person accepts it, signed in as themselves", async () => {
    const victim = await userOfB();
    const { token } = await inviteToken(adminA, victim.email, "admin");
    expect(await memberEmails(adminA)).not.toContain(victim.email);
    expect((await victim.session.call("GET", "/api/console/me")).body.organizations).toHaveLength(1);

    const res = await accept(victim.session, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      organization: { organization_id: ctx().orgA.organization_id, name: "Org A" },
      member: { user_id: victim.userId, email: victim.email, role: "admin" },
      account_created: false,
      signed_in: true,
    });
    expect(await memberEmails(adminA)).toContain(victim.email);
    // The console now opens in the organization just joined (the cookie it set); their own stays theirs.
    const joined = consoleSession(`${victim.session.cookie}; ${cookiesOf(res.headers)}`);
    const me = await joined.call("GET", "/api/console/me");
    expect(me.body.organization.name).toBe("Org A");
    expect(me.body.organizations.map((o: { name: string }) => o.name).sort()).toEqual(["Org A", "Org B"]);
  });

  it("each step is in org A's audit log: created, accepted, member added", async () => {
    const email = fresh("audited");
    const { invitation_id, token } = await inviteToken(adminA, email);
    const { res } = await acceptAsNew(token);
    expect(res.status, res.text).toBe(200);
    const revoked = await inviteToken(adminA, fresh("audited-revoked"));
    expect((await adminA.call("DELETE", await inOrg(adminA, `/invitations/${revoked.invitation_id}`))).status).toBe(
      200,
    );
    const events = (await adminA.call("GET", await inOrg(adminA, "/audit?limit=100"))).body.events as {
      action: string;
      actor: { label: string };
      target: { id: string };
      data: Record<string, unknown>;
    }[];
    const of = (action: string, id: string) => events.filter((e) => e.action === action && e.target.id === id);
    expect(of("invitation.created", invitation_id)[0]).toMatchObject({
      actor: { label: "admin-a@example.com" },
      data: { email, role: "support" },
    });
    expect(of("invitation.accepted", invitation_id)[0]).toMatchObject({
      actor: { label: email },
      data: { email, account_created: true },
    });
    expect(of("member.added", res.body.member.user_id)[0]).toMatchObject({
      actor: { label: email },
      data: { email, role: "support", invitation_id, invited_by: "admin-a@example.com" },
    });
    expect(of("invitation.revoked", revoked.invitation_id)[0]).toMatchObject({
      actor: { label: "admin-a@example.com" },
    });
    expect(JSON.stringify(events)).not.toContain(token);
  });
});

describe("T-ENROL-2 no account enumeration through invitations", () => {
  /** The answer with what must differ (ids, times, the link, the email itself) masked. */
  const masked = (res: { status: number; headers: Headers; text: string }, email: string) => ({
    status: res.status,
    contentType: res.headers.get("content-type"),
    headerNames: [...res.headers.keys()].filter((h) => !["date", "x-request-id", "content-length"].includes(h)),
    text: res.text
      .split(email)
      .join("<email>")
      .replace(/inv_[0-9A-Za-z]{22}/g, "<id>")
      .replace(/it_[0-9A-Za-z]{43}/g, "<token>")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<time>"),
  });

  it("inviting an email with an account elsewhere answers exactly as an unknown email does", async () => {
    const existing = await userOfB();
    const unknown = fresh("nobody");
    const a = await adminA.call("POST", await inOrg(adminA, "/invitations"), {
      email: existing.email,
      role: "support",
    });
    const b = await adminA.call("POST", await inOrg(adminA, "/invitations"), { email: unknown, role: "support" });
    tokens.push(tokenOf(a.body.url), tokenOf(b.body.url));
    expect(a.status).toBe(201);
    expect(masked(a, existing.email)).toEqual(masked(b, unknown));
    expect(Object.keys(a.body).sort()).toEqual([
      "created_at",
      "email",
      "emailed",
      "expires_at",
      "invitation_id",
      "invited_by",
      "role",
      "url",
    ]);
    expect(a.text).not.toContain(existing.userId);
    // An upper-case spelling of the existing email is the same email, and still tells nothing.
    const c = await adminA.call("POST", await inOrg(adminA, "/invitations"), {
      email: existing.email.toUpperCase(),
      role: "support",
    });
    tokens.push(tokenOf(c.body.url));
    expect(masked(c, existing.email)).toEqual(masked(b, unknown));
  });

  it("the pending list shows the same for both, and only a member of this organization is refused (409)", async () => {
    const existing = await userOfB();
    const unknown = fresh("nobody-listed");
    await inviteToken(adminA, existing.email);
    await inviteToken(adminA, unknown);
    const list = (await adminA.call("GET", await inOrg(adminA, "/invitations?limit=100"))).body.invitations as Record<
      string,
      unknown
    >[];
    const rows = [existing.email, unknown].map((e) => list.find((i) => i.email === e)!);
    expect(Object.keys(rows[0]!).sort()).toEqual(Object.keys(rows[1]!).sort());
    expect(JSON.stringify(list)).not.toContain(existing.userId);
    expectError(
      await adminA.call("POST", await inOrg(adminA, "/invitations"), { email: "support-a@example.com", role: "admin" }),
      409,
      "conflict",
    );
  });
});

describe("T-ENROL-3 an invitation link works once, for its email, until it expires or is revoked", () => {
  it("a link is single use", async () => {
    const { token } = await inviteToken(adminA, fresh("once"));
    const first = await acceptAsNew(token);
    expect(first.res.status, first.res.text).toBe(200);
    expect(first.res.body).toMatchObject({ account_created: true, signed_in: true, member: { role: "support" } });
    expect((await first.session.call("GET", "/api/console/me")).body.organization.name).toBe("Org A");
    expectError(await accept(first.session, token), 410, "invitation_expired");
    expectError((await acceptAsNew(token, "another password")).res, 410, "invitation_expired");
  });

  it("a wrong or malformed token is invitation_not_found, never a 500", async () => {
    const signedOut = consoleSession("");
    expectError(await accept(signedOut, `it_${"A".repeat(43)}`, { password: PASSWORD }), 404, "invitation_not_found");
    expectError(await accept(adminA, "../../etc/passwd"), 404, "invitation_not_found");
    expectError(await signedOut.call("POST", "/api/console/invitations/accept", {}), 400, "invalid_request");
  });

  it("signed in as someone else: refused with the reason, and the invitation stays for its person", async () => {
    const email = fresh("intended");
    const { token } = await inviteToken(adminA, email);
    const other = await userOfB();
    const res = await accept(other.session, token);
    expectError(res, 403, "invitation_email_mismatch");
    expect(res.body.error.message).toContain(email);
    expectError(await accept(adminA, token), 403, "invitation_email_mismatch");
    expect(await memberEmails(adminA)).not.toContain(other.email);
    expect((await acceptAsNew(token)).res.status).toBe(200);
  });

  it("signed out, an existing account is never given a password from an invitation: sign in to accept", async () => {
    const existing = await userOfB();
    const { token } = await inviteToken(adminA, existing.email);
    const res = (await acceptAsNew(token, "attacker-chosen-password")).res;
    expectError(res, 409, "account_exists");
    expect(res.headers.getSetCookie()).toEqual([]);
    // The password is unchanged, the invitation still pending; signed in, they accept.
    const wrong = await fetch(`${ctx().baseUrl}/api/console/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ctx().baseUrl },
      body: JSON.stringify({ email: existing.email, password: "attacker-chosen-password" }),
    });
    expect(wrong.status).toBe(401);
    expect((await accept(await signIn(existing.email), token)).status).toBe(200);
  });

  it("someone removed from every organization signs in and accepts a new invitation", async () => {
    const email = fresh("returning");
    const userId = await addMember(adminA, email);
    expect((await adminA.call("DELETE", await inOrg(adminA, `/members/${userId}`))).status).toBe(200);
    const session = await signIn(email);
    expectError(await session.call("GET", "/api/console/me"), 401, "unauthorized");
    const { token } = await inviteToken(adminA, email, "admin");
    const res = await accept(session, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ account_created: false, member: { user_id: userId, role: "admin" } });
    expect((await session.call("GET", "/api/console/me")).body.role).toBe("admin");
  });

  it("a revoked invitation and a replaced one no longer work, and leave the pending list", async () => {
    const email = fresh("revoked");
    const first = await inviteToken(adminA, email);
    const second = await inviteToken(adminA, email);
    const list = async () =>
      (
        (await adminA.call("GET", await inOrg(adminA, "/invitations?limit=100"))).body.invitations as {
          invitation_id: string;
        }[]
      ).map((i) => i.invitation_id);
    expect(await list()).toContain(second.invitation_id);
    expect(await list()).not.toContain(first.invitation_id);
    expectError((await acceptAsNew(first.token)).res, 410, "invitation_expired");

    const revoked = await adminA.call("DELETE", await inOrg(adminA, `/invitations/${second.invitation_id}`));
    expect(revoked.status, revoked.text).toBe(200);
    expect(await list()).not.toContain(second.invitation_id);
    expectError((await acceptAsNew(second.token)).res, 410, "invitation_expired");
    expectError(
      await adminA.call("DELETE", await inOrg(adminA, `/invitations/${second.invitation_id}`)),
      404,
      "invitation_not_found",
    );
    expect(await memberEmails(adminA)).not.toContain(email);
  });

  it("the invitation page, signed out, names the organization, the role and the email, and says when a link is not valid", async () => {
    const email = fresh("page");
    const { token } = await inviteToken(adminA, email, "admin");
    const page = await fetch(`${ctx().baseUrl}/invite/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of ["Org A", email, "admin"]) expect(html).toContain(text);
    expect(page.headers.get("referrer-policy") ?? html).toMatch(/no-referrer/);
    const bogus = await (await fetch(`${ctx().baseUrl}/invite/it_${"B".repeat(43)}`)).text();
    expect(bogus).toContain("not valid");
    expect(bogus).not.toContain("Org A");
  });

  it("no invitation token reaches the server's log", () => {
    expect(tokens.length).toBeGreaterThan(5);
    const logText = readFileSync(ctx().logFile, "utf8");
    for (const token of tokens) expect(logText).not.toContain(token);
  });
});

describe("T-ENROL-4 invitations are the business of their own organization's admins", () => {
  it("support can neither list, create nor revoke invitations", async () => {
    const { invitation_id } = await inviteToken(adminA, fresh("support-cannot"));
    expectError(await supportA.call("GET", await inOrg(supportA, "/invitations")), 403, "forbidden");
    expectError(
      await supportA.call("POST", await inOrg(supportA, "/invitations"), { email: fresh("sneaky"), role: "admin" }),
      403,
      "forbidden",
    );
    expectError(
      await supportA.call("DELETE", await inOrg(supportA, `/invitations/${invitation_id}`)),
      403,
      "forbidden",
    );
  });

  it("org B's admin neither sees nor revokes org A's invitations", async () => {
    const email = fresh("cross-org");
    const { invitation_id, token } = await inviteToken(adminA, email);
    const listB = await adminB.call("GET", await inOrg(adminB, "/invitations?limit=100"));
    expect(listB.status).toBe(200);
    expect(listB.text).not.toContain(invitation_id);
    expect(listB.text).not.toContain(email);
    expectError(
      await adminB.call("DELETE", await inOrg(adminB, `/invitations/${invitation_id}`)),
      404,
      "invitation_not_found",
    );
    expect((await acceptAsNew(token)).res.status).toBe(200);
  });
});

describe("T-ENROL-3 expiry and guessing, on a server of its own", () => {
  let own: OwnServer;
  let admin: ConsoleSession;

  beforeAll(async () => {
    own = await ownServer("invite-expiry");
    admin = await signIn("invite-expiry@example.com", PASSWORD, own.server.baseUrl);
  });
  afterAll(async () => {
    await own?.dispose();
  });

  it("an invitation past its expiry is refused (410) and leaves the pending list", async () => {
    const { invitation_id, url } = await invite(admin, fresh("late"));
    const expiresIn = new Date(
      (await admin.call("GET", await inOrg(admin, "/invitations"))).body.invitations[0].expires_at,
    );
    const days = (expiresIn.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    // Move the expiry into the past in the database (the embedded one allows one process at a time).
    await own.server.stop();
    await withDb(own.target, (q) =>
      q("UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [invitation_id]),
    );
    await own.restart();
    admin = await signIn("invite-expiry@example.com", PASSWORD, own.server.baseUrl);
    const res = (await acceptAsNew(tokenOf(url), PASSWORD, own.server.baseUrl)).res;
    expectError(res, 410, "invitation_expired");
    expect(res.body.error.message).toContain("expired");
    expect((await admin.call("GET", await inOrg(admin, "/invitations"))).body.invitations).toEqual([]);
  });

  it("wrong tokens are limited per client address: ten a minute, then 429 with Retry-After", async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<ConsoleSession["call"]>> | undefined;
    for (let i = 0; i < 11; i++) {
      last = await accept(consoleSession("", own.server.baseUrl), `it_${String(i).padStart(43, "x")}`);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(10).fill(404), 429]);
    expectError(last!, 429, "rate_limited");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("T-MAIL-1 outgoing email: links to PUBLIC_URL, failures never fail an invitation, no secret logged", () => {
  let smtp: SmtpTestServer;
  let own: OwnServer;
  let admin: ConsoleSession;
  const PUBLIC_URL = "https://console.example.test";

  beforeAll(async () => {
    smtp = await startSmtpServer();
    own = await ownServer("invite-mail", {
      SMTP_URL: smtp.url,
      SMTP_FROM: "Invitations <invites@example.test>",
      PUBLIC_URL,
    });
    // A browser on the console's public address sends that origin (the server compares with PUBLIC_URL).
    admin = await signIn("invite-mail@example.com", PASSWORD, own.server.baseUrl, PUBLIC_URL);
  });
  afterAll(async () => {
    await own?.dispose();
    await smtp?.close();
  });

  it("the invitation is emailed with its link, sent as the configured sender with the SMTP credentials", async () => {
    const email = fresh("mailed");
    const answer = await invite(admin, email, "admin");
    expect(answer.emailed).toBe(true);
    expect(answer.url).toMatch(new RegExp(`^${PUBLIC_URL}/invite/it_[0-9A-Za-z]{43}$`));
    const mail = smtp.received.find((m) => m.to.includes(email))!;
    expect(mail).toMatchObject({ from: "invites@example.test", user: "mailer" });
    expect(mail.headers).toMatch(/^Subject: You are invited to invite-mail$/m);
    expect(mail.text).toContain(answer.url);
    expect(mail.text).toContain("invite-mail@example.com invited you to join invite-mail");
    // The link works (on this server; PUBLIC_URL is only its public name).
    expect(
      (await acceptAsNew(tokenOf(answer.url), PASSWORD, own.server.baseUrl, undefined, PUBLIC_URL)).res.status,
    ).toBe(200);
  });

  it("a forged Host cannot point the emailed link elsewhere", async () => {
    const email = fresh("forged-host");
    const body = JSON.stringify({ email, role: "support" });
    const { port } = new URL(own.server.baseUrl);
    const invitations = await inOrg(admin, "/invitations");
    const send = (origin: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = http.request(
          {
            host: "127.0.0.1",
            port,
            method: "POST",
            path: invitations,
            headers: {
              host: "evil.example",
              origin,
              cookie: admin.cookie,
              "content-type": "application/json",
              "content-length": Buffer.byteLength(body),
            },
          },
          (res) => {
            let text = "";
            res.on("data", (c) => (text += c));
            res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    // A forged Host with a matching Origin is not the console's origin (PUBLIC_URL): refused.
    expect((await send("http://evil.example")).status).toBe(403);
    // The console's own origin with a forged Host: the link still names PUBLIC_URL.
    const answer = await send(PUBLIC_URL);
    expect(answer.status).toBe(201);
    expect(answer.body.url.startsWith(`${PUBLIC_URL}/invite/`)).toBe(true);
    const mail = smtp.received.find((m) => m.to.includes(email))!;
    expect(mail.text).not.toContain("evil.example");
    expect(mail.text).toContain(answer.body.url);
  });

  it("a refused send still makes the invitation: emailed false, the link given, the failure logged without secrets", async () => {
    const email = fresh("bounce");
    const before = smtp.received.length;
    const answer = await invite(admin, email);
    expect(answer.emailed).toBe(false);
    expect(smtp.received.length).toBe(before);
    const { res } = await acceptAsNew(tokenOf(answer.url), PASSWORD, own.server.baseUrl, undefined, PUBLIC_URL);
    expect(res.status).toBe(200);
    const logText = readFileSync(own.server.logFile, "utf8");
    const line = logText.split("\n").find((l) => l.includes("email not sent"));
    expect(line).toContain("550");
    expect(logText).not.toContain(tokenOf(answer.url));
    expect(logText).not.toContain(smtp.password);
    expect(logText).not.toContain(encodeURIComponent(smtp.password));
  });

  it("an address cannot smuggle headers or extra recipients into the email", async () => {
    const before = smtp.received.length;
    for (const email of [
      `${fresh("a")}\r\nBcc: victim@example.com`,
      `${fresh("a")}, victim@example.com`,
      `"x" <${fresh("a")}>`,
      `${fresh("a")}\nSubject: hi`,
    ]) {
      expectError(
        await admin.call("POST", await inOrg(admin, "/invitations"), { email, role: "support" }),
        400,
        "invalid_request",
      );
    }
    expect(smtp.received.length).toBe(before);
  });
});
