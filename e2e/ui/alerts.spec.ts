// Alerts in the console: an admin creates an error-rate rule for an agent in the page, the agent's
// replies fail and the page shows the rule firing (the page polls; the server evaluates every
// second, global-setup), then successful replies bring the rate under the threshold and it shows
// OK again; the history lists the fired and the resolved event with where each went; the rule is
// deleted after a confirmation. Support members read the history but not the rules.
import { call, expect, expectAccessible, expectFitsPhone, management, screenshots, test, ui } from "./fixtures";

test("an error-rate rule made in the page fires when the agent's replies fail and resolves when they succeed", async ({
  as,
}) => {
  const stamp = Date.now().toString(36);
  const agent = await management.createAgent({
    name: `flaky ${stamp}`,
    kind: "conversational",
    runtime: { type: "echo", fail: "error" },
  });
  const key = await management.mintKey("orgA", `alerts ${stamp}`);
  const page = await as("adminA");
  await page.goto("/alerts");
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "New rule" }).click();
  const dialog = page.getByRole("dialog", { name: "New alert rule" });
  const ruleName = `Flaky errors ${stamp}`;
  await dialog.getByLabel("Name").fill(ruleName);
  await dialog.getByLabel("What to watch").selectOption("error_rate");
  await dialog.getByLabel("Agent").selectOption(agent.agent_id);
  await dialog.getByLabel("Alert above (%)").fill("50");
  await dialog.getByLabel("Window (minutes)").fill("15");
  await dialog.getByLabel("Minimum replies").fill("2");
  await dialog.getByLabel("Webhook URL (optional)").fill("https://hooks.invalid/alerts");
  // The kind's own words and unit.
  await dialog.getByLabel("What to watch").selectOption("key_expiring");
  await expect(dialog.getByLabel("Alert when fewer than (days)")).toBeVisible();
  await expect(dialog.getByLabel("Agent")).toHaveCount(0);
  await dialog.getByLabel("What to watch").selectOption("error_rate");
  await dialog.getByLabel("Agent").selectOption(agent.agent_id);
  await expectAccessible(page);
  await screenshots(page, "alerts-rule-dialog");
  await dialog.getByRole("button", { name: "Create rule" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole("row").filter({ hasText: ruleName });
  await expect(row).toContainText("OK");
  await expect(row).toContainText(`Error rate > 50 % · flaky ${stamp}`);

  // Two failed replies of two: 100 % over 50 %, with the minimum volume met.
  const trigger = () => call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: key, body: { message: "hi" } });
  expect((await trigger()).status).toBe(502);
  expect((await trigger()).status).toBe(502);
  await expect(row).toContainText("Firing", { timeout: 30_000 });
  await expect(row).toContainText("100 %");
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "alerts-firing");

  // The agent healed (the fix published: an edit alone is a draft, never served): 3 of 5 replies
  // succeed. The rate is 50 % after two and 40 % after three; the worker may resolve at either
  // (usage is flushed each second), and then shows the last value, 40 %.
  const org = ui().orgA;
  const healed = await call("PATCH", `/api/v1/organizations/${org.organization_id}/agents/${agent.agent_id}`, {
    auth: org.user_token,
    body: { runtime: { type: "echo" }, publish: true },
  });
  expect(healed.status).toBe(200);
  for (let i = 0; i < 3; i++) expect((await trigger()).status).toBe(200);
  await expect(row).toContainText("OK", { timeout: 30_000 });
  await expect(row).toContainText("40 %");

  await page.getByRole("link", { name: "History" }).click();
  await expect(page.getByRole("heading", { name: "Alert history", level: 1 })).toBeVisible();
  const events = page.getByRole("row").filter({ hasText: ruleName });
  await expect(events).toHaveCount(2);
  await expect(events.nth(0)).toContainText("Resolved");
  await expect(events.nth(0)).toContainText(/(?:^|\D)(40|50) %/);
  await expect(events.nth(1)).toContainText("Fired");
  await expect(events.nth(1)).toContainText("100 %");
  await expect(events.nth(1)).toContainText("https://hooks.invalid/alerts");
  await events
    .nth(1)
    .getByRole("link", { name: `Delivery of the fired event of ${ruleName}` })
    .click();
  await expect(page).toHaveURL(/\/webhooks\/deliveries\/dlv_/);
  await expect(page.getByText("alert.fired").first()).toBeVisible();
  await page.goBack();
  await expect(events).toHaveCount(2);
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "alerts-history");

  // Support reads the history, not the rules.
  const support = await as("supportA");
  await support.goto("/alerts/history");
  await expect(support.getByRole("row").filter({ hasText: ruleName })).toHaveCount(2);
  await support.goto("/alerts");
  await expect(support.getByRole("link", { name: "See the alert history" })).toBeVisible();
  await expect(support.getByRole("row").filter({ hasText: ruleName })).toHaveCount(0);

  // Delete after a confirmation; the history stays.
  await page.goto("/alerts");
  await row.getByRole("button", { name: /Delete/ }).click();
  const confirm = page.getByRole("dialog", { name: `Delete ${ruleName}?` });
  await confirm.getByRole("button", { name: "Delete rule" }).click();
  await expect(row).toHaveCount(0);
  await page.goto("/alerts/history");
  await expect(page.getByRole("row").filter({ hasText: ruleName })).toHaveCount(2);
});
