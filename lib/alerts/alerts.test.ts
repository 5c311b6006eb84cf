// Alert rules driven directly with controlled times and rollup rows (no sleeping): a rule fires once
// when its value crosses the threshold, stays quiet while it stays above, resolves once, honours
// its quiet period, and each move is a history row with a signed-event delivery in the outbox.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSmtpServer } from "../../e2e/api/smtp-server";
import { openTestDatabase } from "../../test-support/db";
import { systemActor } from "../audit";
import { resetClock, shiftClock } from "../clock";
import { resetEnvCache } from "../env";
import { isApiError } from "../errors";
import { mintKey, revokeKey } from "../keys/service";
import { bootstrap } from "../orgs/service";
import { createAgent } from "../agents/service";
import { addUsageIn } from "../usage/recorder";
import { evaluateAlerts } from "./evaluate";
import { createAlertRule } from "./service";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let orgId: string;
let otherOrg: string;
let agentA: string;
const actor = systemActor("test");
const T0 = new Date("2026-11-20T10:05:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

beforeAll(async () => {
  db = await openTestDatabase();
  orgId = (await bootstrap({ org: "alerts", email: "a@example.com", password: "password-1" })).organization_id;
  otherOrg = (await bootstrap({ org: "others", email: "o@example.com", password: "password-1" })).organization_id;
  const echo = { kind: "conversational" as const, runtime: { type: "echo" as const } };
  agentA = (await createAgent({ organizationId: orgId, input: { name: "a", ...echo } as never, actor })).agent_id;
});
afterAll(() => {
  resetClock();
  return db.dispose();
});

const DAY = 86_400_000;
const ruleInput = (kind: "key_expiring" | "rate_limit", threshold: number, extra: object = {}) => ({
  name: `${kind} rule`,
  kind,
  threshold,
  window_minutes: 5,
  min_volume: 0,
  quiet_minutes: 0,
  url: null,
  email: null,
  enabled: true,
  ...extra,
});

/** Replies of `agent` in the hour of `when`, written as the recorder writes them. */
async function replies(organizationId: string, agent: string, when: Date, ok: number, failed: number) {
  await db.prisma.$transaction(async (tx) => {
    for (let i = 0; i < ok; i++)
      await addUsageIn(tx, { organizationId, agentId: agent, at: when, repliesCompleted: 1, latencyMs: 100 });
    for (let i = 0; i < failed; i++)
      await addUsageIn(tx, { organizationId, agentId: agent, at: when, repliesFailed: 1, latencyMs: 100 });
  });
}

describe("alert rules", () => {
  it("fire once, stay quiet while true, resolve once, then wait out the quiet period", async () => {
    const rule = await createAlertRule({
      organizationId: orgId,
      input: {
        name: "errors of agent a",
        kind: "error_rate",
        agent_id: agentA,
        threshold: 10,
        window_minutes: 30,
        min_volume: 5,
        quiet_minutes: 120,
        url: "https://hooks.example.com/alerts",
        email: null,
        enabled: true,
      },
      actor,
    });
    // Too little volume: 1 failure of 2 replies does not count.
    await replies(orgId, agentA, at(0), 1, 1);
    expect(await evaluateAlerts({ now: at(1), organizationId: orgId })).toEqual([]);
    // Another organization's failures never reach this rule.
    await replies(otherOrg, agentA, at(0), 0, 50);
    expect(await evaluateAlerts({ now: at(1), organizationId: orgId })).toEqual([]);
    // 4 failed of 10: 40 % > 10 %: fires once.
    await replies(orgId, agentA, at(0), 5, 3);
    const fired = await evaluateAlerts({ now: at(2), organizationId: orgId });
    expect(fired).toEqual([{ ruleId: rule.rule_id, move: "fired", value: 40 }]);
    expect(await evaluateAlerts({ now: at(3), organizationId: orgId })).toEqual([]);
    expect(await evaluateAlerts({ now: at(4), organizationId: orgId })).toEqual([]);
    // Two hours later the window holds only healthy replies: resolves once.
    await replies(orgId, agentA, at(120), 20, 0);
    expect(await evaluateAlerts({ now: at(121), organizationId: orgId })).toEqual([
      { ruleId: rule.rule_id, move: "resolved", value: 0 },
    ]);
    expect(await evaluateAlerts({ now: at(122), organizationId: orgId })).toEqual([]);
    // Failing again within the quiet period: no new alert; after it, one.
    await replies(orgId, agentA, at(121), 0, 20);
    expect(await evaluateAlerts({ now: at(150), organizationId: orgId })).toEqual([]);
    const again = await evaluateAlerts({ now: at(242), organizationId: orgId });
    expect(again).toHaveLength(0); // the failures' hour has left the window by then
    await replies(orgId, agentA, at(241), 0, 10);
    expect(await evaluateAlerts({ now: at(243), organizationId: orgId })).toEqual([
      { ruleId: rule.rule_id, move: "fired", value: 100 },
    ]);

    const history = await db.sql.query<{
      event: string;
      value: number;
      delivery_id: string | null;
      delivered_to: string[];
    }>(`SELECT event, value, delivery_id, delivered_to FROM alert_events WHERE rule_id = $1 ORDER BY created_at`, [
      rule.rule_id,
    ]);
    expect(history.map((h) => [h.event, h.value])).toEqual([
      ["fired", 40],
      ["resolved", 0],
      ["fired", 100],
    ]);
    expect(history[0]!.delivered_to).toEqual(["https://hooks.example.com/alerts"]);
    // Each move is a pending delivery of the completion callbacks' outbox, with its event and body.
    const deliveries = await db.sql.query<{ id: string; event: string; url: string; body: string; status: string }>(
      `SELECT id, event, url, body, status FROM callback_deliveries WHERE organization_id = $1 ORDER BY created_at`,
      [orgId],
    );
    expect(deliveries.map((d) => d.event)).toEqual(["alert.fired", "alert.resolved", "alert.fired"]);
    expect(deliveries.map((d) => d.id)).toEqual(history.map((h) => h.delivery_id));
    expect(JSON.parse(deliveries[0]!.body)).toMatchObject({
      type: "alert.fired",
      data: { rule_id: rule.rule_id, kind: "error_rate", value: 40, threshold: 10 },
    });
  });

  it("records no mailto: delivery on a server without SMTP_URL: nothing was sent", async () => {
    vi.stubEnv("SMTP_URL", "");
    resetEnvCache();
    try {
      const org = (await bootstrap({ org: "unmailed", email: "u@example.com", password: "password-1" }))
        .organization_id;
      const echo = { kind: "conversational" as const, runtime: { type: "echo" as const } };
      const agent = (await createAgent({ organizationId: org, input: { name: "u", ...echo } as never, actor }))
        .agent_id;
      const input = { ...ruleInput("key_expiring", 1), kind: "error_rate" as const, agent_id: agent, threshold: 50 };
      const mailOnly = await createAlertRule({
        organizationId: org,
        input: { ...input, name: "mail only", email: "oncall@example.com" },
        actor,
      });
      const both = await createAlertRule({
        organizationId: org,
        input: { ...input, name: "both", email: "oncall@example.com", url: "https://hooks.example.com/a" },
        actor,
      });
      await replies(org, agent, at(0), 0, 4);
      expect(await evaluateAlerts({ now: at(1), organizationId: org })).toHaveLength(2);
      const sentTo = async (ruleId: string) =>
        (
          await db.sql.query<{ delivered_to: string[] }>(`SELECT delivered_to FROM alert_events WHERE rule_id = $1`, [
            ruleId,
          ])
        ).map((r) => r.delivered_to);
      expect(await sentTo(mailOnly.rule_id)).toEqual([[]]);
      expect(await sentTo(both.rule_id)).toEqual([["https://hooks.example.com/a"]]);
    } finally {
      vi.unstubAllEnvs();
      resetEnvCache();
    }
  });

  it("emails the rule's address on fire and on resolve when SMTP_URL is set", async () => {
    const smtp = await startSmtpServer();
    vi.stubEnv("SMTP_URL", smtp.url);
    vi.stubEnv("SMTP_FROM", "Alerts <alerts@example.test>");
    vi.stubEnv("PUBLIC_URL", "https://console.example.test");
    resetEnvCache();
    try {
      const org = (await bootstrap({ org: "mailed", email: "m@example.com", password: "password-1" })).organization_id;
      const echo = { kind: "conversational" as const, runtime: { type: "echo" as const } };
      const agent = (await createAgent({ organizationId: org, input: { name: "m", ...echo } as never, actor }))
        .agent_id;
      const rule = await createAlertRule({
        organizationId: org,
        input: {
          ...ruleInput("key_expiring", 1),
          kind: "error_rate",
          name: "mailed errors",
          agent_id: agent,
          threshold: 50,
          email: "oncall@example.com",
        },
        actor,
      });
      await replies(org, agent, at(0), 0, 4);
      expect(await evaluateAlerts({ now: at(1), organizationId: org })).toEqual([
        { ruleId: rule.rule_id, move: "fired", value: 100 },
      ]);
      await replies(org, agent, at(0), 16, 0);
      expect(await evaluateAlerts({ now: at(2), organizationId: org })).toEqual([
        { ruleId: rule.rule_id, move: "resolved", value: 20 },
      ]);
      const mails = smtp.received.filter((m) => m.to.includes("oncall@example.com"));
      expect(mails.map((m) => /^Subject: (.*)$/m.exec(m.headers)?.[1])).toEqual([
        "Alert fired: mailed errors",
        "Alert resolved: mailed errors",
      ]);
      expect(mails[0]!.from).toBe("alerts@example.test");
      expect(mails[0]!.text).toContain("value 100, threshold 50");
      const history = await db.sql.query<{ delivered_to: string[] }>(
        `SELECT delivered_to FROM alert_events WHERE rule_id = $1`,
        [rule.rule_id],
      );
      expect(history.map((r) => r.delivered_to)).toEqual([
        ["mailto:oncall@example.com"],
        ["mailto:oncall@example.com"],
      ]);
    } finally {
      vi.unstubAllEnvs();
      resetEnvCache();
      await smtp.close();
    }
  });

  it("refuses a URL that is no http(s) address, as a callback_url", async () => {
    for (const url of ["file:///etc/passwd", "https://user:pw@example.com/", "not a url"]) {
      const e = await createAlertRule({
        organizationId: orgId,
        input: {
          name: "x",
          kind: "latency_p95",
          threshold: 1,
          window_minutes: 5,
          min_volume: 0,
          quiet_minutes: 0,
          url,
          enabled: true,
        },
        actor,
      }).catch((err: unknown) => err);
      expect(isApiError(e) && e.code).toBe("invalid_callback_url");
    }
  });
});

describe("key_expiring", () => {
  it("fires when the soonest expiry of a working key is fewer days away than the threshold, resolves when that key is revoked", async () => {
    const org = (await bootstrap({ org: "expiring", email: "e@example.com", password: "password-1" })).organization_id;
    const inDays = (d: number) => new Date(Date.now() + d * DAY).toISOString();
    // Keys without an expiry, and another organization's key expiring tomorrow, do not count.
    await mintKey({ organizationId: org, input: { name: "forever", permissions: ["agents:invoke"] }, actor });
    await mintKey({
      organizationId: otherOrg,
      input: { name: "other", permissions: ["agents:invoke"], expires_at: inDays(1) },
      actor,
    });
    const rule = await createAlertRule({ organizationId: org, input: ruleInput("key_expiring", 7), actor });
    expect(await evaluateAlerts({ organizationId: org })).toEqual([]);
    const soon = await mintKey({
      organizationId: org,
      input: { name: "soon", permissions: ["agents:invoke"], expires_at: inDays(10) },
      actor,
    });
    await mintKey({
      organizationId: org,
      input: { name: "later", permissions: ["agents:invoke"], expires_at: inDays(30) },
      actor,
    });
    // 10 days left: not below 7.
    expect(await evaluateAlerts({ organizationId: org })).toEqual([]);
    // Four days on, 6 days are left of the soonest key: fires once, with the days left as its value.
    shiftClock(4 * DAY);
    const fired = await evaluateAlerts({ organizationId: org });
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ ruleId: rule.rule_id, move: "fired" });
    expect(fired[0]!.value).toBeGreaterThan(5.99);
    expect(fired[0]!.value).toBeLessThan(6.01);
    expect(await evaluateAlerts({ organizationId: org })).toEqual([]);
    // Revoking it leaves the 30-day key (26 days left): resolves.
    await revokeKey({ organizationId: org, keyId: soon.key_id, actor });
    const resolved = await evaluateAlerts({ organizationId: org });
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ ruleId: rule.rule_id, move: "resolved" });
    expect(resolved[0]!.value).toBeGreaterThan(25.99);
    // A key past its expiry no longer counts: 27 more days and none works with an expiry.
    shiftClock(27 * DAY);
    expect(await evaluateAlerts({ organizationId: org })).toEqual([]);
    resetClock();
  });
});

describe("rate_limit", () => {
  it("measures the busiest key's triggers a minute against its own limit and fires above the threshold", async () => {
    const org = (await bootstrap({ org: "busy", email: "b@example.com", password: "password-1" })).organization_id;
    const small = await mintKey({
      organizationId: org,
      input: { name: "small", permissions: ["agents:invoke"], rate_limit_per_minute: 10 },
      actor,
    });
    const big = await mintKey({
      organizationId: org,
      input: { name: "big", permissions: ["agents:invoke"], rate_limit_per_minute: 1000 },
      actor,
    });
    const rule = await createAlertRule({ organizationId: org, input: ruleInput("rate_limit", 75), actor });
    const hour = new Date("2026-11-21T09:00:00Z");
    const triggers = (organizationId: string, keyId: string, n: number) =>
      db.prisma.$transaction((tx) =>
        addUsageIn(tx, { organizationId, agentId: "agt_x", keyId, at: hour, triggers: n }),
      );
    // 500 triggers of the big key in 10 minutes: 50 a minute, 5 % of its 1000.
    await triggers(org, big.key_id, 500);
    // Another organization's traffic through a key id of this one never counts.
    await triggers(otherOrg, small.key_id, 10_000);
    const tenPast = new Date(hour.getTime() + 10 * 60_000);
    expect(await evaluateAlerts({ now: tenPast, organizationId: org })).toEqual([]);
    // 70 triggers of the small key in 10 minutes: 7 a minute, 70 % of 10: not above 75.
    await triggers(org, small.key_id, 70);
    expect(await evaluateAlerts({ now: tenPast, organizationId: org })).toEqual([]);
    const state = await db.prisma.alertRule.findUniqueOrThrow({ where: { id: rule.rule_id } });
    expect(state.lastValue).toBeCloseTo(70, 6);
    // 10 more: 80 %: fires once.
    await triggers(org, small.key_id, 10);
    const fired = await evaluateAlerts({ now: tenPast, organizationId: org });
    expect(fired).toHaveLength(1);
    expect(fired[0]!.move).toBe("fired");
    expect(fired[0]!.value).toBeCloseTo(80, 6);
    // Twenty minutes later the same traffic is 80 / 30 a minute, 26.7 %: resolves.
    const thirtyPast = new Date(hour.getTime() + 30 * 60_000);
    const resolved = await evaluateAlerts({ now: thirtyPast, organizationId: org });
    expect(resolved).toHaveLength(1);
    expect(resolved[0]!.move).toBe("resolved");
    expect(resolved[0]!.value).toBeCloseTo((80 / 30 / 10) * 100, 6);
  });
});

describe("rule writes", () => {
  it("refuse another organization's agent as a missing one, cap the rules at 100, and write audit rows", async () => {
    const org = (await bootstrap({ org: "capped", email: "c@example.com", password: "password-1" })).organization_id;
    const e = await createAlertRule({
      organizationId: org,
      input: { ...ruleInput("rate_limit", 50), agent_id: agentA },
      actor,
    }).catch((err: unknown) => err);
    expect(isApiError(e) && [e.code, e.status]).toEqual(["agent_not_found", 404]);
    for (let i = 0; i < 100; i++)
      await createAlertRule({ organizationId: org, input: ruleInput("rate_limit", i), actor });
    const full = await createAlertRule({ organizationId: org, input: ruleInput("rate_limit", 1), actor }).catch(
      (err: unknown) => err,
    );
    expect(isApiError(full) && [full.code, full.status]).toEqual(["too_many_alert_rules", 409]);
    const audits = await db.prisma.auditEvent.count({ where: { organizationId: org, action: "alert_rule.created" } });
    expect(audits).toBe(100);
  });
});
