// The console lists at volume (docs/console.md, "List filters", "Saved views"): filters kept in the
// URL survive a reload, an invalid filter value in the URL shows an error (not a field reading
// "Any"), a view saves and applies the current filters, and the DataTable lists fit a phone and
// pass axe at both sizes.
import { call, ECHO_AGENT, expect, expectAccessible, expectFitsPhone, management, screenshots, test } from "./fixtures";

const webhook = (agentId: string) => `/api/agents/webhook/${agentId}`;

test("filters live in the URL, survive a reload, and a bad value shows an error", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`lists filters ${Date.now()}`));
  const key = await management.mintKey();
  for (const user of ["ada", "grace"]) {
    const res = await call("POST", webhook(agent.agent_id), { auth: key, body: { message: "hi", user_id: user } });
    expect(res.status).toBe(200);
  }
  const page = await as("adminA");
  await page.goto(`/sessions?agent_id=${agent.agent_id}`);
  const rows = page.getByRole("table", { name: "Sessions" }).locator("tbody tr");
  await expect(rows).toHaveCount(2);

  // User id: applied on Enter, kept in the URL, still applied after a reload.
  await page.getByLabel("User id").fill("ada");
  await page.getByLabel("User id").press("Enter");
  await expect(page).toHaveURL(/user_id=ada/);
  await expect(rows).toHaveCount(1);
  await page.getByLabel("To (through)").fill("2099-01-01");
  await expect(page).toHaveURL(/to=2099-01-01/);
  await page.reload();
  await expect(page.getByLabel("User id")).toHaveValue("ada");
  await expect(page.getByLabel("To (through)")).toHaveValue("2099-01-01");
  await expect(page.getByLabel("Agent")).toHaveValue(agent.agent_id);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("ada");

  // An invalid value: the field shows it with an error, and the list says why it is empty.
  await page.goto("/sessions?status=sleeping");
  await expect(page.getByLabel("Status")).toHaveValue("sleeping");
  await expect(page.getByRole("alert").filter({ hasText: "Unknown status" })).toBeVisible();
  await expect(page.getByText("Sessions could not be loaded")).toBeVisible();
  await expect(page.getByText(/status must be one of/)).toBeVisible();
  await page.goto("/runs?from=yesterday&has_error=maybe");
  await expect(page.getByRole("alert").filter({ hasText: "Not a date" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Unknown errors" })).toBeVisible();
  await expect(page.getByText("Runs could not be loaded")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(page).toHaveURL(/\/runs$/);
});

test("a saved view keeps the current filters and applies them", async ({ as }) => {
  const page = await as("supportA");
  const name = `Failed runs ${Date.now()}`;
  await page.goto("/runs?status=failed&has_error=true");
  await page.getByRole("button", { name: "Views" }).click();
  const dialog = page.getByRole("dialog", { name: "Saved views" });
  await dialog.getByLabel("Save the current filters as").fill(name);
  await dialog.getByRole("button", { name: "Save view" }).click();
  await expect(dialog.getByRole("list", { name: "Views" })).toContainText(name);
  await dialog.getByRole("button", { name: "Close" }).click();

  await page.goto("/runs");
  await expect(page.getByLabel("Status")).toHaveValue("");
  await page.getByRole("button", { name: "Views" }).click();
  await screenshots(page, "lists-views-menu");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: `Apply view ${name}` }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(page).toHaveURL(/has_error=true/);
  await expect(page.getByLabel("Status")).toHaveValue("failed");

  // Deleting it (its owner may).
  await page.getByRole("button", { name: "Views" }).click();
  await dialog.getByRole("button", { name: `Delete view ${name}` }).click();
  await dialog.getByRole("button", { name: `Confirm deleting view ${name}` }).click();
  await expect(dialog.getByRole("button", { name: `Apply view ${name}` })).toHaveCount(0);
});

test("the DataTable lists fit a phone and pass axe at both sizes", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`lists table ${Date.now()}`));
  const key = await management.mintKey();
  await call("POST", webhook(agent.agent_id), {
    auth: key,
    body: { message: "hi", user_id: "a-rather-long-end-user-identifier-0123456789" },
  });
  const page = await as("adminA");
  for (const [path, name] of [
    ["/sessions", "lists-sessions"],
    ["/runs", "lists-runs"],
    ["/audit", "lists-audit"],
    ["/webhooks", "lists-webhooks"],
    ["/members", "lists-members"],
    [`/uploads?agent_id=${agent.agent_id}`, "lists-uploads"],
  ] as const) {
    await page.goto(path);
    await expect(page.locator('[aria-busy="true"], [aria-label^="Loading"]')).toHaveCount(0);
    await screenshots(page, name);
    await expectFitsPhone(page);
    await expectAccessible(page);
    await page.setViewportSize({ width: 375, height: 812 });
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  // Audit targets link to their objects.
  await page.goto("/audit?action=agent.created");
  await expect(page.getByRole("link", { name: /^Open agent agt_/ }).first()).toBeVisible();
});
