// Exports in the console: a list page links to /exports with its filters, the "New export" dialog
// opens prefilled, an export with redaction runs to the end live in the list, and Download gets its
// file through a fresh signed link.
import { readFileSync } from "node:fs";
import { call, ECHO_AGENT, expect, expectAccessible, expectFitsPhone, management, screenshots, test } from "./fixtures";

test("an export with redaction is made from a list, finishes live, and downloads redacted", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`export ui ${Date.now()}`));
  const key = await management.mintKey("orgA", "export ui");
  const res = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
    auth: key,
    body: { message: "reach me at jane.doe@example.com or +1 415 555 0123", user_id: "export-ui-user" },
  });
  expect(res.status).toBe(200);

  const page = await as("adminA");
  await page.goto(`/sessions?agent_id=${agent.agent_id}`);
  await page.getByRole("link", { name: "Export", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/exports\\?kind=sessions&agent_id=${agent.agent_id}`));
  const dialog = page.getByRole("dialog", { name: "New export" });
  await expect(dialog.getByLabel("What")).toHaveValue("sessions");
  await expect(dialog.getByLabel("Agent id")).toHaveValue(agent.agent_id);
  await dialog.getByLabel("Format").selectOption("jsonl");
  await dialog.getByLabel("Email addresses").check();
  await dialog.getByLabel("Phone numbers").check();
  await dialog.getByLabel("Fields to redact").fill("ssn, dob");
  await expectAccessible(page);
  await screenshots(page, "exports-new");
  await dialog.getByRole("button", { name: "Start export" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole("row").filter({ hasText: "Sessions with messages" }).first();
  await expect(row.getByText("succeeded")).toBeVisible({ timeout: 30_000 });
  for (const rule of ["emails", "phones", "field:ssn", "field:dob"]) {
    await expect(row.getByText(rule, { exact: true })).toBeVisible();
  }
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "exports-list");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("button", { name: /^Download / }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^sessions-exp_[0-9A-Za-z]+\.jsonl$/);
  const text = readFileSync((await download.path())!, "utf8");
  expect(text).toContain("reach me at [redacted:email] or [redacted:phone]");
  expect(text).not.toContain("jane.doe@example.com");
  expect(text).toContain(agent.agent_id);
});

test("a support member exports sessions but is not offered the audit log", async ({ as }) => {
  const page = await as("supportA");
  await page.goto("/exports?kind=runs&status=failed");
  const dialog = page.getByRole("dialog", { name: "New export" });
  await expect(dialog.getByLabel("What")).toHaveValue("runs");
  await expect(dialog.getByLabel("Status")).toHaveValue("failed");
  await expect(dialog.getByLabel("What").locator("option", { hasText: "Audit log" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "support-exports-new");
});
