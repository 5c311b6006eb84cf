// Members and the audit log: admins add, promote and remove people; support is refused; an
// organization keeps its last admin; a member of two organizations switches between them.
import { expect, expectAccessible, screenshots, test, ui } from "./fixtures";

const mainNav = (page: import("@playwright/test").Page) => page.getByRole("navigation", { name: "Main" });

test("an admin adds a support member who signs in, then promotes and removes them", async ({ as, browser }) => {
  // Two browsers, several sign-ins and screenshots: more than the default minute on a loaded machine.
  test.setTimeout(120_000);
  const email = `new-${Date.now()}@ui.test`;
  const password = "a fresh password 1";
  const admin = await as("adminA");
  await admin.goto("/members");
  await expect(admin.getByRole("table", { name: "Members" })).toContainText("admin-a@ui.test");

  await admin.getByRole("button", { name: "Add member" }).click();
  const dialog = admin.getByRole("dialog", { name: "Add a member" });
  await expect(dialog).toContainText("keeps their own password");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Role").selectOption("support");
  await dialog.getByLabel("Name (optional)").fill("Nova Member");
  // A new user needs an initial password: the field says so.
  await dialog.getByRole("button", { name: "Add member" }).click();
  await expect(dialog.getByRole("alert")).toContainText("a new user needs an initial password");
  await dialog.getByLabel("Initial password").fill(password);
  await expectAccessible(admin);
  await screenshots(admin, "members-add-dialog");
  await dialog.getByRole("button", { name: "Add member" }).click();
  await expect(dialog).toBeHidden();
  const row = admin.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("Nova Member");
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("support");

  // Adding them again is a conflict, said plainly.
  await admin.getByRole("button", { name: "Add member" }).click();
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Add member" }).click();
  await expect(dialog.getByRole("alert")).toContainText(`${email} is already a member of this organization.`);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  // The new member signs in with the initial password: support sees no Members and is refused it.
  const context = await browser.newContext({ baseURL: ui().baseUrl });
  try {
    const member = await context.newPage();
    await member.goto("/login");
    await member.getByLabel("Email").fill(email);
    await member.getByLabel("Password").fill(password);
    await member.getByRole("button", { name: "Sign in" }).click();
    await expect(member.getByRole("heading", { name: "Overview" })).toBeVisible();
    await expect(mainNav(member).getByRole("link", { name: "Sessions" })).toBeVisible();
    await expect(mainNav(member).getByRole("link", { name: "Members" })).toHaveCount(0);
    await member.goto("/members");
    await expect(member.getByRole("heading", { name: "Admins only" })).toBeVisible();
    await expect(member.getByRole("table", { name: "Members" })).toHaveCount(0);

    // Promoted, they see Members on their next page.
    await row.getByLabel(`Role of ${email}`).selectOption("admin");
    await expect(admin.getByRole("status").filter({ hasText: `${email} is now admin` })).toBeVisible();
    await admin.reload();
    await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("admin");
    await member.reload();
    await expect(member.getByRole("table", { name: "Members" })).toContainText(email);
    await expect(mainNav(member).getByRole("link", { name: "Members" })).toBeVisible();

    // Removed, they can no longer use the dashboard.
    await row.getByRole("button", { name: `Remove ${email}` }).click();
    const confirm = admin.getByRole("dialog", { name: `Remove ${email}?` });
    await confirm.getByRole("button", { name: "Remove member" }).click();
    await expect(confirm).toBeHidden();
    await expect(admin.getByRole("row").filter({ hasText: email })).toHaveCount(0);
    const me = await member.request.get("/api/console/me");
    expect(me.status()).toBe(401);
    await member.goto("/sessions");
    await expect(member).toHaveURL(/\/login\?next=%2Fsessions$/);
  } finally {
    await context.close();
  }
});

test("the last admin can be neither removed nor demoted", async ({ as }) => {
  const admin = await as("adminA");
  await admin.goto("/members");
  const table = admin.getByRole("table", { name: "Members" });
  await expect(table).toContainText("admin-a@ui.test");
  // Precondition (refuse to run destructively): admin-a is Acme's only admin.
  const members = (await (await admin.request.get("/api/console/members")).json()).members as {
    email: string;
    role: string;
  }[];
  expect(members.filter((m) => m.role === "admin").map((m) => m.email)).toEqual(["admin-a@ui.test"]);

  const self = admin.getByRole("row").filter({ hasText: "admin-a@ui.test" });
  await expect(self).toContainText("you");
  await self.getByRole("button", { name: "Remove admin-a@ui.test" }).click();
  const confirm = admin.getByRole("dialog", { name: "Remove admin-a@ui.test?" });
  await expect(confirm).toContainText("You will lose access to Acme");
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(confirm.getByRole("alert")).toContainText("An organization needs at least one admin");
  await confirm.getByRole("button", { name: "Cancel" }).click();

  await self.getByLabel("Role of admin-a@ui.test").selectOption("support");
  const demote = admin.getByRole("dialog", { name: "Make yourself support?" });
  await demote.getByRole("button", { name: "Make me support" }).click();
  await expect(demote.getByRole("alert")).toContainText("An organization needs at least one admin");
  await demote.getByRole("button", { name: "Cancel" }).click();
  await expect(demote).toBeHidden();
  await expect(self.getByLabel("Role of admin-a@ui.test")).toHaveValue("admin");
  await expectAccessible(admin);
  await screenshots(admin, "members");
});

test("support is refused the members page and the members API", async ({ as }) => {
  const page = await as("supportA");
  await page.goto("/members");
  await expect(page.getByRole("heading", { name: "Admins only" })).toBeVisible();
  await expect(mainNav(page).getByRole("link", { name: "Members" })).toHaveCount(0);
  await expect(mainNav(page).getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "members-support");
  const res = await page.request.post("/api/console/members", {
    data: { email: "sneaky@ui.test", role: "admin", password: "sneaky password" },
    headers: { origin: ui().baseUrl },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.code).toBe("forbidden");
  const list = await page.request.get("/api/console/members");
  expect(list.status()).toBe(403);
  await page.goto("/audit");
  await expect(page.getByRole("heading", { name: "Admins only" })).toBeVisible();
});

test("a member of two organizations switches from Acme to Globex in the header", async ({ as }) => {
  const page = await as("multi");
  await page.goto("/");
  const org = page.getByLabel("Organization");
  await expect(org).toHaveValue(ui().orgA.organization_id);
  // Support in Acme: no Members.
  await expect(mainNav(page).getByRole("link", { name: "Sessions" })).toBeVisible();
  await expect(mainNav(page).getByRole("link", { name: "Members" })).toHaveCount(0);
  await org.selectOption({ label: "Globex" });
  // Admin in Globex: Members appears, and it lists Globex's people.
  await expect(mainNav(page).getByRole("link", { name: "Members" })).toBeVisible();
  await expect(page.getByLabel("Organization")).toHaveValue(ui().orgB.organization_id);
  await mainNav(page).getByRole("link", { name: "Members" }).click();
  const table = page.getByRole("table", { name: "Members" });
  await expect(table).toContainText("admin-b@ui.test");
  await expect(table).not.toContainText("admin-a@ui.test");
  await page.getByLabel("Organization").selectOption({ label: "Acme" });
  await expect(mainNav(page).getByRole("link", { name: "Members" })).toHaveCount(0);
});

test("the audit log lists member changes and filters by action in the URL", async ({ as }) => {
  const page = await as("adminA");
  await page.goto("/audit");
  const table = page.getByRole("table", { name: "Audit log" });
  const rows = table.locator("tbody tr");
  await expect(table).toContainText("member.added");
  await expect(table).toContainText("Member added");

  await page.getByLabel("Action").selectOption("member.added");
  await expect(page).toHaveURL(/action=member\.added/);
  const added = rows.filter({ hasText: '"email":"support-a@ui.test"' }).filter({ hasText: '"role":"support"' });
  await expect(added).toHaveCount(1);
  await expect(added).toContainText("admin-a@ui.test");
  await expect(rows.filter({ hasNotText: "member.added" })).toHaveCount(0);

  await page.getByLabel("Action").selectOption("auth.sign_in");
  await expect(page).toHaveURL(/action=auth\.sign_in$/);
  await expect(rows.first()).toContainText("Signed in");
  await expect(rows.filter({ hasNotText: "auth.sign_in" })).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel("Action")).toHaveValue("auth.sign_in");
  await expect(rows.filter({ hasNotText: "auth.sign_in" })).toHaveCount(0);

  // Pages: one event per page.
  await page.goto("/audit?action=member.*&limit=1");
  await expect(rows).toHaveCount(1);
  const first = await rows.first().textContent();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/offset=1/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).not.toHaveText(first!);
  await expect(rows.first()).toContainText("member.");

  await page.goto("/audit");
  await expectAccessible(page);
  await screenshots(page, "audit");
});
