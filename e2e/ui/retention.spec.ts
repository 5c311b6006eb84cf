// Retention in the console: an admin reads the setting and changes it through a confirm step that
// says what the next sweep deletes; a support member sees the same page read-only.
import { call, expect, expectAccessible, expectFitsPhone, screenshots, test, ui } from "./fixtures";

const retentionPath = () => `/api/v1/organizations/${ui().orgA.organization_id}/retention`;

test("an admin sees the setting and its source, sets a number of days, confirms, and the page shows it", async ({
  as,
}) => {
  const page = await as("adminA");
  try {
    await page.goto("/settings/retention");
    await expect(page.getByRole("heading", { name: "Retention", level: 1 })).toBeVisible();
    await expect(page.getByTestId("retention-effective")).toHaveText("Forever");
    await expect(page.getByTestId("retention-source")).toHaveText("Server default");
    await expect(page.getByText("Oldest record kept")).toBeVisible();
    await expectAccessible(page);
    await expectFitsPhone(page);
    await screenshots(page, "retention");

    await page.getByRole("button", { name: "Change retention" }).click();
    const form = page.getByRole("dialog", { name: "Change retention" });
    await form.getByLabel("Keep history").selectOption("days");
    await form.getByLabel("Days").fill("0");
    await form.getByRole("button", { name: "Continue" }).click();
    await expect(form.getByText("Enter a number of days from 1 to 3650.")).toBeVisible();
    await form.getByLabel("Days").fill("3650");
    await expectAccessible(page);
    await screenshots(page, "retention-form");
    await form.getByRole("button", { name: "Continue" }).click();

    const confirm = page.getByRole("dialog", { name: "Keep 3,650 days?" });
    // The console's history is minutes old: the server's count finds nothing older than ten years.
    await expect(confirm.getByTestId("retention-preview")).toContainText("the sweep deletes nothing now");
    await expectAccessible(page);
    await screenshots(page, "retention-confirm");
    await confirm.getByRole("button", { name: "Save retention" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId("retention-effective")).toHaveText("3,650 days");
    await expect(page.getByTestId("retention-source")).toHaveText("This organization");
    await page.reload();
    await expect(page.getByTestId("retention-effective")).toHaveText("3,650 days");
    await expectFitsPhone(page);
    await screenshots(page, "retention-set");

    // Back to the server default, the way it came.
    await page.getByRole("button", { name: "Change retention" }).click();
    await form.getByLabel("Keep history").selectOption("default");
    await form.getByRole("button", { name: "Continue" }).click();
    await page
      .getByRole("dialog", { name: "Follow the server default?" })
      .getByRole("button", { name: "Save retention" })
      .click();
    await expect(page.getByTestId("retention-source")).toHaveText("Server default");
  } finally {
    // Whatever happened above, the organization follows the default again for the other specs.
    await call("PATCH", retentionPath(), { auth: ui().orgA.user_token, body: { retention_days: null } });
  }
});

test("a support member sees the setting read-only and cannot change it", async ({ as }) => {
  const page = await as("supportA");
  await page.goto("/settings/retention");
  await expect(page.getByRole("heading", { name: "Retention", level: 1 })).toBeVisible();
  await expect(page.getByText("You have read access. Admins change the retention.")).toBeVisible();
  await expect(page.getByTestId("retention-effective")).toHaveText("Forever");
  await expect(page.getByRole("button", { name: "Change retention" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Retention", exact: true })).toBeVisible();
  const res = await page.request.patch(`/api/v1/organizations/${ui().orgA.organization_id}/retention`, {
    data: { retention_days: 1 },
    headers: { origin: ui().baseUrl },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.code).toBe("forbidden");
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "support-retention");
});
