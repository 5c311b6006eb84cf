// Members and the audit log: admins invite, promote and remove people and revoke invitations;
// support is refused; an organization keeps its last admin; a member of two organizations
// switches between them.
import { expect, expectAccessible, expectFitsPhone, screenshots, test, ui } from "./fixtures";
import { AUDIT_ACTIONS } from "../../lib/audit-actions";

const mainNav = (page: import("@playwright/test").Page) => page.getByRole("navigation", { name: "Main" });
/** A path of Acme's organization API (org A). */
const orgApi = (path: string) => `/api/v1/organizations/${ui().orgA.organization_id}${path}`;

test("an admin invites a support member who accepts the link, then promotes and removes them", async ({
  as,
  browser,
}) => {
  // Two browsers, several sign-ins and screenshots: more than the default minute on a loaded machine.
  test.setTimeout(150_000);
  const email = `new-${Date.now()}@ui.test`;
  const password = "a fresh password 1";
  const admin = await as("adminA");
  await admin.goto("/members");
  await expect(admin.getByRole("table", { name: "Members" })).toContainText("admin-a@ui.test");

  await admin.getByRole("button", { name: "Invite member" }).click();
  const dialog = admin.getByRole("dialog", { name: "Invite a member" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Role").selectOption("support");
  await expectAccessible(admin);
  await screenshots(admin, "members-invite-dialog");
  await dialog.getByRole("button", { name: "Invite" }).click();
  // The link, once, with a copy button; no SMTP_URL here, so it was not emailed.
  const shown = admin.getByRole("dialog", { name: "Send this invitation link" });
  await expect(shown).toContainText(`Not emailed: copy the link and send it to ${email} yourself.`);
  const link = (await shown.getByTestId("invitation-link").textContent())!;
  expect(link).toMatch(/^http:\/\/[^/]+\/invite\/it_[0-9A-Za-z]{43}$/);
  await expect(shown.getByRole("button", { name: "Copy link" })).toBeVisible();
  await expectAccessible(admin);
  await screenshots(admin, "members-invitation-link");
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();

  // Pending, and not a member until they accept.
  const pending = admin.getByRole("table", { name: "Pending invitations" }).getByRole("row").filter({ hasText: email });
  await expect(pending).toContainText("7 d left");
  await expect(admin.getByRole("table", { name: "Members" })).not.toContainText(email);

  // Inviting someone who is already a member is a conflict, said plainly.
  await admin.getByRole("button", { name: "Invite member" }).click();
  await dialog.getByLabel("Email").fill("support-a@ui.test");
  await dialog.getByRole("button", { name: "Invite" }).click();
  await expect(dialog.getByRole("alert")).toContainText("support-a@ui.test is already a member of this organization.");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  // The invited person opens the link signed out and creates their account: support sees no Members.
  const context = await browser.newContext({ baseURL: ui().baseUrl });
  try {
    const member = await context.newPage();
    await member.goto(new URL(link).pathname, { waitUntil: "networkidle" });
    await expect(member.getByRole("heading", { name: "Join Acme" })).toBeVisible();
    await member.getByLabel("Your name (optional)").fill("Nova Member");
    await member.getByLabel("Choose a password").fill(password);
    await member.getByRole("button", { name: "Create account and join" }).click();
    await expect(member.getByRole("heading", { name: "Overview" })).toBeVisible();
    await expect(mainNav(member).getByRole("link", { name: "Sessions" })).toBeVisible();
    await expect(mainNav(member).getByRole("link", { name: "Members" })).toHaveCount(0);
    await member.goto("/members");
    await expect(member.getByRole("heading", { name: "Admins only" })).toBeVisible();
    await expect(member.getByRole("table", { name: "Members" })).toHaveCount(0);

    await admin.reload();
    const row = admin.getByRole("table", { name: "Members" }).getByRole("row").filter({ hasText: email });
    await expect(row).toContainText("Nova Member");
    await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("support");
    await expect(pending).toHaveCount(0);

    // Promoted, they see Members on their next page.
    await row.getByLabel(`Role of ${email}`).selectOption("admin");
    await expect(admin.getByRole("status").filter({ hasText: `${email} is now admin` })).toBeVisible();
    await admin.reload();
    await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("admin");
    await member.reload();
    await expect(member.getByRole("table", { name: "Members" })).toContainText(email);
    await expect(mainNav(member).getByRole("link", { name: "Members" })).toBeVisible();

    // Removed, they can no longer use the console.
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

test("an admin revokes a pending invitation: it leaves the list and its link stops working", async ({
  as,
  browser,
}) => {
  const email = `revoked-${Date.now()}@ui.test`;
  const admin = await as("adminA");
  const made = await admin.request.post(orgApi("/invitations"), {
    data: { email, role: "admin" },
    headers: { origin: ui().baseUrl },
  });
  expect(made.status()).toBe(201);
  const link = new URL((await made.json()).url).pathname;
  await admin.goto("/members");
  const row = admin.getByRole("table", { name: "Pending invitations" }).getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("admin");
  await row.getByRole("button", { name: `Revoke the invitation of ${email}` }).click();
  const confirm = admin.getByRole("dialog", { name: `Revoke the invitation of ${email}?` });
  await expect(confirm).toContainText("Its link stops working at once.");
  await confirm.getByRole("button", { name: "Revoke invitation" }).click();
  await expect(confirm).toBeHidden();
  await expect(admin.getByRole("status").filter({ hasText: `Revoked the invitation of ${email}` })).toBeVisible();
  await expect(row).toHaveCount(0);

  const context = await browser.newContext({ baseURL: ui().baseUrl });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This invitation can no longer be used" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("revoked");
  await expect(page.getByRole("button", { name: "Create account and join" })).toHaveCount(0);
  await context.close();
});

test("the last admin can be neither removed nor demoted", async ({ as }) => {
  const admin = await as("adminA");
  await admin.goto("/members");
  const table = admin.getByRole("table", { name: "Members" });
  await expect(table).toContainText("admin-a@ui.test");
  // Precondition (refuse to run destructively): admin-a is Acme's only admin.
  const members = (await (await admin.request.get(orgApi("/members"))).json()).members as {
    email: string;
    role: string;
  }[];
  expect(members.filter((m) => m.role === "admin").map((m) => m.email)).toEqual(["admin-a@ui.test"]);

  const self = table.getByRole("row").filter({ hasText: "admin-a@ui.test" });
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
  const res = await page.request.post(orgApi("/invitations"), {
    data: { email: "sneaky@ui.test", role: "admin" },
    headers: { origin: ui().baseUrl },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.code).toBe("forbidden");
  for (const path of [orgApi("/members"), orgApi("/invitations"), orgApi("/audit")]) {
    expect((await page.request.get(path)).status(), path).toBe(403);
  }
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

  // The filter offers every action of the list the services are typed by.
  const options = await page
    .getByLabel("Action")
    .locator("option")
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(options).toEqual(expect.arrayContaining(AUDIT_ACTIONS.map((a) => a.action)));

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
  await page.getByRole("button", { name: "Older" }).click();
  await expect(page).toHaveURL(/[?&]cursor=[\w-]+/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).not.toHaveText(first!);
  await expect(rows.first()).toContainText("member.");

  await page.goto("/audit");
  await expectAccessible(page);
  await screenshots(page, "audit");
});

test("a 60-character email wraps in the members and audit tables at 375 px: no sideways scroll of the page or the tables", async ({
  as,
}) => {
  const email = `a-very-long-local-part-of-an-address-${Date.now()}`.padEnd(52, "x") + "@ui.test";
  expect(email).toHaveLength(60);
  const admin = await as("adminA");
  await admin.goto("/members");
  await admin.getByRole("button", { name: "Invite member" }).click();
  const dialog = admin.getByRole("dialog", { name: "Invite a member" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Invite" }).click();
  const shown = admin.getByRole("dialog", { name: "Send this invitation link" });
  await expect(shown).toContainText(email);
  await shown.getByRole("button", { name: "Done" }).click();

  const tableFits = async (name: string) => {
    const overflow = await admin
      .getByRole("table", { name })
      .evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth);
    expect(overflow, `the ${name} table scrolls sideways`).toBeLessThanOrEqual(0);
  };
  await admin.setViewportSize({ width: 375, height: 812 });
  const pending = admin.getByRole("table", { name: "Pending invitations" });
  await expect(pending).toContainText(email);
  await expectFitsPhone(admin);
  await tableFits("Pending invitations");
  await tableFits("Members");
  await expectAccessible(admin);
  await screenshots(admin, "members-long-email");

  await admin.goto("/audit");
  await expect(admin.getByRole("table", { name: "Audit log" })).toContainText(email);
  await expectFitsPhone(admin);
  await tableFits("Audit log");
  await expectAccessible(admin);
  await screenshots(admin, "audit-long-email");
});
