// Alert rules driven directly with controlled times and rollup rows (no sleeping): a rule fires once
// when its value crosses the threshold, stays quiet while it stays above, resolves once, honours
// its quiet period, and each move is a history row with a signed-event delivery in the outbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test-support/db";
import { isApiError } from "../errors";
import { bootstrap } from "../orgs/service";
import { addUsageIn } from "../usage/recorder";
import { evaluateAlerts } from "./evaluate";
import { createAlertRule } from "./service";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let orgId: string;
let otherOrg: string;
const T0 = new Date("2026-11-20T10:05:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

beforeAll(async () => {
  db = await openTestDatabase();
  orgId = (await bootstrap({ org: "alerts", email: "a@example.com", password: "password-1" })).organization_id;
  otherOrg = (await bootstrap({ org: "others", email: "o@example.com", password: "password-1" })).organization_id;
});
afterAll(() => db.dispose());

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
        name: "errors of agt_a",
        kind: "error_rate",
        agent_id: "agt_a",
        threshold: 10,
        window_minutes: 30,
        min_volume: 5,
        quiet_minutes: 120,
        url: "https://hooks.example.com/alerts",
        email: null,
        enabled: true,
      },
    });
    // Too little volume: 1 failure of 2 replies does not count.
    await replies(orgId, "agt_a", at(0), 1, 1);
    expect(await evaluateAlerts({ now: at(1), organizationId: orgId })).toEqual([]);
    // Another organization's failures never reach this rule.
    await replies(otherOrg, "agt_a", at(0), 0, 50);
    expect(await evaluateAlerts({ now: at(1), organizationId: orgId })).toEqual([]);
    // 4 failed of 10: 40 % > 10 %: fires once.
    await replies(orgId, "agt_a", at(0), 5, 3);
    const fired = await evaluateAlerts({ now: at(2), organizationId: orgId });
    expect(fired).toEqual([{ ruleId: rule.rule_id, move: "fired", value: 40 }]);
    expect(await evaluateAlerts({ now: at(3), organizationId: orgId })).toEqual([]);
    expect(await evaluateAlerts({ now: at(4), organizationId: orgId })).toEqual([]);
    // Two hours later the window holds only healthy replies: resolves once.
    await replies(orgId, "agt_a", at(120), 20, 0);
    expect(await evaluateAlerts({ now: at(121), organizationId: orgId })).toEqual([
      { ruleId: rule.rule_id, move: "resolved", value: 0 },
    ]);
    expect(await evaluateAlerts({ now: at(122), organizationId: orgId })).toEqual([]);
    // Failing again within the quiet period: no new alert; after it, one.
    await replies(orgId, "agt_a", at(121), 0, 20);
    expect(await evaluateAlerts({ now: at(150), organizationId: orgId })).toEqual([]);
    const again = await evaluateAlerts({ now: at(242), organizationId: orgId });
    expect(again).toHaveLength(0); // the failures' hour has left the window by then
    await replies(orgId, "agt_a", at(241), 0, 10);
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
      }).catch((err: unknown) => err);
      expect(isApiError(e) && e.code).toBe("invalid_callback_url");
    }
  });
});
