// Alerts (docs/api.md, Alerts) through the production server: rules created, read, changed and
// deleted by an admin's user token and in the console; validation errors with their codes; another
// organization's rule and agent ids answer as missing ones; support refused (the history readable);
// the 100-rule cap; and, on a server of its own that evaluates every second, an error-rate alert
// firing and resolving, each delivered SIGNED to a local receiver and verified as docs/api.md tells
// customers to verify completion callbacks (the standardwebhooks package), plus a "Send test".
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orgPath, signIn } from "./console";
import { call, createAgent, ctx, ECHO_AGENT, expectError, type ApiResponse } from "./helpers";
import { ownServer, type OwnServer } from "./server";

const rulesOf = (orgId: string) => `/api/v1/organizations/${orgId}/alert-rules`;
const rule = (extra: object = {}) => ({ name: "errors", kind: "error_rate", threshold: 20, ...extra });

describe("alert rules: the management API", () => {
  it("creates, reads, lists, changes and deletes a rule, with audit rows", async () => {
    const { orgA } = ctx();
    const auth = orgA.user_token;
    const agent = (await createAgent(orgA, ECHO_AGENT)).agent_id;
    const created = await call("POST", rulesOf(orgA.organization_id), {
      auth,
      body: rule({ agent_id: agent, window_minutes: 30, min_volume: 5, url: "https://hooks.example.com/a" }),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      kind: "error_rate",
      agent_id: agent,
      threshold: 20,
      window_minutes: 30,
      min_volume: 5,
      quiet_minutes: 0,
      enabled: true,
      firing: false,
      last_value: null,
    });
    const path = `${rulesOf(orgA.organization_id)}/${created.body.rule_id}`;
    expect((await call("GET", path, { auth })).body.name).toBe("errors");
    const list = await call("GET", rulesOf(orgA.organization_id), { auth });
    expect(list.body.alert_rules.map((r: { rule_id: string }) => r.rule_id)).toContain(created.body.rule_id);
    const changed = await call("PATCH", path, { auth, body: { threshold: 35, url: null, enabled: false } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ threshold: 35, url: null, enabled: false, agent_id: agent });
    expect(await call("DELETE", path, { auth })).toMatchObject({ status: 200, body: { deleted: true } });
    expectError(await call("GET", path, { auth }), 404, "alert_rule_not_found");
    expectError(await call("DELETE", path, { auth }), 404, "alert_rule_not_found");
    const admin = await signIn("admin-a@example.com");
    const audit = await admin.call("GET", orgPath("/audit?action=alert_rule.*&limit=100"));
    const actions = audit.body.events
      .filter((e: { target: { id: string } }) => e.target.id === created.body.rule_id)
      .map((e: { action: string }) => e.action);
    expect(actions.sort()).toEqual(["alert_rule.created", "alert_rule.deleted", "alert_rule.updated"]);
  });

  it("refuses invalid rules with the field and its code", async () => {
    const { orgA } = ctx();
    const post = (body: unknown) => call("POST", rulesOf(orgA.organization_id), { auth: orgA.user_token, body });
    const fieldOf = (res: { body: any }) => res.body.error.details.fields.map((f: { field: string }) => f.field);
    const refused = (res: ApiResponse, code = "invalid_request") => {
      expectError(res, 400, code);
      return res;
    };
    const noName = await post({ kind: "error_rate", threshold: 1 });
    expectError(noName, 400, "invalid_request");
    expect(fieldOf(noName)).toEqual(["name"]);
    expect(fieldOf(refused(await post(rule({ kind: "cpu" }))))).toEqual(["kind"]);
    expect(fieldOf(refused(await post(rule({ threshold: 101 }))))).toEqual(["threshold"]);
    expect(fieldOf(refused(await post(rule({ threshold: -1 }))))).toEqual(["threshold"]);
    expect(fieldOf(refused(await post(rule({ window_minutes: 0 }))))).toEqual(["window_minutes"]);
    const email = refused(await post(rule({ email: "not-an-address" })));
    expect(email.body.error.details.fields).toEqual([{ field: "email", message: "must be an email address" }]);
    const extra = refused(await post(rule({ extra: 1 })));
    expect(extra.body.error.message).toMatch(/extra/);
    for (const url of ["file:///etc/passwd", "https://user:pw@example.com/", "not a url"]) {
      const res = await post(rule({ url }));
      expectError(res, 400, "invalid_callback_url");
      expect(fieldOf(res)).toEqual(["url"]);
    }
    // A test needs a URL to send to.
    const bare = await post(rule());
    const test = await call("POST", `${rulesOf(orgA.organization_id)}/${bare.body.rule_id}/test`, {
      auth: orgA.user_token,
    });
    expect(fieldOf(refused(test))).toEqual(["url"]);
  });

  it("answers another organization's rule and agent ids as missing ones", async () => {
    const { orgA, orgB } = ctx();
    const agentOfA = (await createAgent(orgA, ECHO_AGENT)).agent_id;
    const ofA = await call("POST", rulesOf(orgA.organization_id), { auth: orgA.user_token, body: rule() });
    expect(ofA.status).toBe(201);
    // B's admin names A's agent in B's rule: 404 agent_not_found, as an unknown agent.
    const withA = await call("POST", rulesOf(orgB.organization_id), {
      auth: orgB.user_token,
      body: rule({ agent_id: agentOfA }),
    });
    const unknown = await call("POST", rulesOf(orgB.organization_id), {
      auth: orgB.user_token,
      body: rule({ agent_id: "agt_0000000000000000000000" }),
    });
    expectError(withA, 404, "agent_not_found");
    expectError(unknown, 404, "agent_not_found");
    expect(withA.body.error.message).toBe(unknown.body.error.message);
    const own = await call("POST", rulesOf(orgB.organization_id), { auth: orgB.user_token, body: rule() });
    expectError(
      await call("PATCH", `${rulesOf(orgB.organization_id)}/${own.body.rule_id}`, {
        auth: orgB.user_token,
        body: { agent_id: agentOfA },
      }),
      404,
      "agent_not_found",
    );
    // A's rule through B's organization path: 404 alert_rule_not_found, whatever the method.
    const path = `${rulesOf(orgB.organization_id)}/${ofA.body.rule_id}`;
    for (const [method, body] of [["GET"], ["PATCH", { threshold: 1 }], ["DELETE"]] as const) {
      expectError(await call(method, path, { auth: orgB.user_token, body }), 404, "alert_rule_not_found");
    }
    expectError(await call("POST", `${path}/test`, { auth: orgB.user_token }), 404, "alert_rule_not_found");
    // A's organization path with B's token: not a member.
    expectError(
      await call("GET", `${rulesOf(orgA.organization_id)}/${ofA.body.rule_id}`, { auth: orgB.user_token }),
      404,
      "organization_not_found",
    );
    const events = await call(
      "GET",
      `/api/v1/organizations/${orgB.organization_id}/alert-events?rule_id=${ofA.body.rule_id}`,
      {
        auth: orgB.user_token,
      },
    );
    expect(events.body.alert_events).toEqual([]);
    // The console of B's admin: A's rule is missing there too.
    const adminB = await signIn("admin-b@example.com");
    expectError(
      await adminB.call("PATCH", `${rulesOf(orgB.organization_id)}/${ofA.body.rule_id}`, { enabled: false }),
      404,
      "alert_rule_not_found",
    );
    expect(
      (await call("GET", `${rulesOf(orgA.organization_id)}/${ofA.body.rule_id}`, { auth: orgA.user_token })).body
        .enabled,
    ).toBe(true);
  });

  it("refuses support: every rule route 403, the history readable", async () => {
    const { orgA, supportA } = ctx();
    const auth = supportA.user_token;
    const base = rulesOf(orgA.organization_id);
    const made = await call("POST", base, { auth: orgA.user_token, body: rule() });
    expectError(await call("GET", base, { auth }), 403, "forbidden");
    expectError(await call("POST", base, { auth, body: rule() }), 403, "forbidden");
    expectError(await call("GET", `${base}/${made.body.rule_id}`, { auth }), 403, "forbidden");
    expectError(
      await call("PATCH", `${base}/${made.body.rule_id}`, { auth, body: { threshold: 1 } }),
      403,
      "forbidden",
    );
    expectError(await call("DELETE", `${base}/${made.body.rule_id}`, { auth }), 403, "forbidden");
    expectError(await call("POST", `${base}/${made.body.rule_id}/test`, { auth }), 403, "forbidden");
    const events = `/api/v1/organizations/${orgA.organization_id}/alert-events`;
    const byToken = await call("GET", events, { auth });
    expect(byToken.status, byToken.text).toBe(200);
    // The same from the console's session (its cookie on the organization API).
    const support = await signIn("support-a@example.com");
    expectError(await support.call("GET", base), 403, "forbidden");
    expectError(await support.call("POST", base, rule()), 403, "forbidden");
    expectError(await support.call("DELETE", `${base}/${made.body.rule_id}`), 403, "forbidden");
    const history = await support.call("GET", events);
    expect(history.status, history.text).toBe(200);
    expect(Array.isArray(history.body.alert_events)).toBe(true);
  });
});

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

describe("alerts delivered", () => {
  let own: OwnServer;
  let receiver: http.Server;
  let base: string;
  let secret: string;
  let cookie: string;
  const received: Received[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({
          path: req.url ?? "/",
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    // Evaluated every second (the minimum) so the test waits seconds, not minutes; loopback is
    // allowed for the suites' local receivers (LOCAL_UPSTREAMS_ENV, set by ownServer).
    own = await ownServer("alerts", { ALERT_EVALUATION_INTERVAL_MS: "1000" });
    const session = await signIn("alerts@example.com", "correct horse battery", own.server.baseUrl);
    cookie = session.cookie;
    const rotated = await session.call("POST", orgPath("/webhook-secret", own.org.organization_id));
    expect(rotated.status, rotated.text).toBe(201);
    secret = rotated.body.secret;
  });
  afterAll(async () => {
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await own?.dispose();
  });

  /** Waits (bounded) for the receiver's first request at `path` whose type is `type`, verified. */
  async function delivered(path: string, type: string) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      for (const hit of received.filter((r) => r.path === path)) {
        // Verified as docs/api.md, Completion callbacks, "Verifying" tells customers to.
        const event = new Webhook(secret).verify(hit.body, hit.headers) as { type: string; data: any };
        if (event.type === type) return { event, hit };
      }
      if (Date.now() > deadline) throw new Error(`no ${type} at ${path}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("an error-rate alert fires once and resolves once, each signed to the rule's URL, and both are in the history", async () => {
    const auth = own.org.user_token;
    const org = `/api/v1/organizations/${own.org.organization_id}`;
    const key = await own.mintKey();
    const agent = await own.createAgent({
      name: "flaky",
      kind: "conversational",
      runtime: { type: "echo", fail: "error" },
    });
    const made = await own.call("POST", `${org}/alert-rules`, {
      auth,
      body: {
        name: "flaky errors",
        kind: "error_rate",
        agent_id: agent,
        threshold: 50,
        window_minutes: 15,
        min_volume: 2,
        url: `${base}/alerts`,
      },
    });
    expect(made.status).toBe(201);
    const trigger = () => own.call("POST", `/api/agents/webhook/${agent}`, { auth: key, body: { message: "hi" } });
    expect((await trigger()).status).toBe(502);
    expect((await trigger()).status).toBe(502);
    const fired = await delivered("/alerts", "alert.fired");
    expect(fired.event.data).toMatchObject({
      rule_id: made.body.rule_id,
      rule_name: "flaky errors",
      kind: "error_rate",
      agent_id: agent,
      value: 100,
      threshold: 50,
      window_minutes: 15,
    });
    expect(fired.hit.headers["webhook-signature"]).toMatch(/^v1,/);
    // A tampered body fails the same verification.
    expect(() => new Webhook(secret).verify(fired.hit.body.replace("100", "1"), fired.hit.headers)).toThrow();
    const firing = await own.call("GET", `${org}/alert-rules/${made.body.rule_id}`, { auth });
    expect(firing.body).toMatchObject({ firing: true, last_value: 100 });

    // The agent healed: 3 of 5 replies succeed. The rate falls to 50 % after two successes and 40 %
    // after three; the evaluator may see either (usage is flushed each second), and both are not
    // above the 50 % threshold: it resolves once, at 50 or 40.
    expect(
      (await own.call("PATCH", `${org}/agents/${agent}`, { auth, body: { runtime: { type: "echo" }, publish: true } }))
        .status,
    ).toBe(200);
    for (let i = 0; i < 3; i++) expect((await trigger()).status).toBe(200);
    const resolved = await delivered("/alerts", "alert.resolved");
    expect(resolved.event.data).toMatchObject({ rule_id: made.body.rule_id });
    expect([50, 40]).toContain(resolved.event.data.value);
    // Once each: one fired, one resolved (a later turn delivers no repeat).
    const history = await own.call("GET", `${org}/alert-events?rule_id=${made.body.rule_id}`, { auth });
    expect(history.body.alert_events.map((e: { event: string; value: number }) => [e.event, e.value])).toEqual([
      ["resolved", resolved.event.data.value],
      ["fired", 100],
    ]);
    expect(history.body.alert_events[1].delivered_to).toEqual([`${base}/alerts`]);
    expect(history.body.alert_events.map((e: { delivery_id: string }) => e.delivery_id)).toEqual([
      resolved.hit.headers["webhook-id"],
      fired.hit.headers["webhook-id"],
    ]);
    const types = received
      .filter((r) => r.path === "/alerts")
      .map((r) => (JSON.parse(r.body) as { type: string }).type);
    expect(types).toEqual(["alert.fired", "alert.resolved"]);
    // The console's history (members) shows the same rows.
    const consoleHistory = await own.call("GET", `${org}/alert-events?rule_id=${made.body.rule_id}`, {
      headers: { cookie, origin: own.server.baseUrl },
    });
    expect(consoleHistory.body.alert_events.map((e: { alert_id: string }) => e.alert_id)).toEqual(
      history.body.alert_events.map((e: { alert_id: string }) => e.alert_id),
    );
  });

  it("a rollout guard rolls a failing canary back: audited, the rule's receiver told, the published version serving all", async () => {
    const auth = own.org.user_token;
    const org = `/api/v1/organizations/${own.org.organization_id}`;
    const key = await own.mintKey();
    const agent = await own.createAgent({ name: "canary", kind: "conversational", runtime: { type: "echo" } });
    const made = await own.call("POST", `${org}/alert-rules`, {
      auth,
      // Disabled: it judges no traffic of the organization, only the canary it guards (so it fires once here).
      body: {
        name: "canary errors",
        kind: "error_rate",
        threshold: 50,
        window_minutes: 5,
        min_volume: 3,
        url: `${base}/guard`,
        enabled: false,
      },
    });
    expect(made.status).toBe(201);
    // Version 2 fails every reply; it rolls out to half of new sessions, guarded by the rule.
    const draft = await own.call("PATCH", `${org}/agents/${agent}`, {
      auth,
      body: { runtime: { type: "echo", fail: "error" }, base_version: 1 },
    });
    expect(draft.status).toBe(200);
    const started = await own.call("POST", `${org}/agents/${agent}/publish`, {
      auth,
      body: { rollout_percent: 50, guard_rule_ids: [made.body.rule_id] },
    });
    expect(started.body.rollout).toMatchObject({ version: 2, percent: 50, guard_rule_ids: [made.body.rule_id] });
    // New sessions until three landed on the canary (each of its replies fails).
    let onCanary = 0;
    for (let i = 0; onCanary < 3 && i < 200; i++) {
      const res = await own.call("POST", `/api/agents/webhook/${agent}`, { auth: key, body: { message: `hi ${i}` } });
      if (res.status === 502) onCanary++;
      else expect(res.body.agent_version).toBe(1);
    }
    expect(onCanary).toBe(3);
    const fired = await delivered("/guard", "alert.fired");
    expect(fired.event.data).toMatchObject({
      rule_id: made.body.rule_id,
      kind: "error_rate",
      value: 100,
      rollout: { agent_id: agent, version: 2, rolled_back_to: 1 },
    });
    const after = await own.call("GET", `${org}/agents/${agent}`, { auth });
    expect(after.body).toMatchObject({ published_version: 1, rollout: null });
    for (let i = 0; i < 5; i++) {
      const res = await own.call("POST", `/api/agents/webhook/${agent}`, {
        auth: key,
        body: { message: `after ${i}` },
      });
      expect(res.body.agent_version).toBe(1);
    }
    const versions = await own.call("GET", `${org}/agents/${agent}/versions`, { auth });
    expect(versions.body.versions[0]).toMatchObject({ version: 2, state: "rolled_back", traffic_percent: 0 });
    const history = await own.call("GET", `${org}/alert-events?rule_id=${made.body.rule_id}`, { auth });
    expect(history.body.alert_events).toEqual([
      expect.objectContaining({
        event: "fired",
        value: 100,
        rollout: { agent_id: agent, version: 2, rolled_back_to: 1 },
      }),
    ]);
    const audit = await own.call("GET", orgPath("/audit?action=agent.rolled_back", own.org.organization_id), {
      headers: { cookie, origin: own.server.baseUrl },
    });
    expect(audit.body.events[0]).toMatchObject({
      actor: { type: "system", label: "rollout guard" },
      target: { id: agent },
      data: { automatic: true, from_version: 2, to_version: 1, guard: { rule_id: made.body.rule_id } },
    });
  });

  it("Send test delivers a signed alert.test event to the rule's URL", async () => {
    const auth = own.org.user_token;
    const org = `/api/v1/organizations/${own.org.organization_id}`;
    const made = await own.call("POST", `${org}/alert-rules`, {
      auth,
      body: { name: "receiver check", kind: "key_expiring", threshold: 7, url: `${base}/test-hook` },
    });
    const sent = await own.call("POST", `${org}/alert-rules/${made.body.rule_id}/test`, { auth });
    expect(sent.status).toBe(202);
    const { event, hit } = await delivered("/test-hook", "alert.test");
    expect(hit.headers["webhook-id"]).toBe(sent.body.delivery_id);
    expect(event.data).toMatchObject({ rule_id: made.body.rule_id, kind: "key_expiring", value: null, threshold: 7 });
  });

  it("caps an organization at 100 rules: the 101st answers 409 too_many_alert_rules", async () => {
    const auth = own.org.user_token;
    const base = `/api/v1/organizations/${own.org.organization_id}/alert-rules`;
    const existing = (await own.call("GET", base, { auth })).body.alert_rules.length;
    for (let i = existing; i < 100; i++) {
      const res = await own.call("POST", base, {
        auth,
        body: { name: `cap ${i}`, kind: "review_waiting", threshold: 600 },
      });
      expect(res.status).toBe(201);
    }
    const over = await own.call("POST", base, {
      auth,
      body: { name: "one too many", kind: "review_waiting", threshold: 1 },
    });
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: "too_many_alert_rules", details: { limit: 100 } });
  });
});
