// The invitation page (/invite/<token>) in a real browser: what it shows signed out, signed in as
// the invited email and as someone else; an existing account signs in to accept (its password is
// never set from the page); a used or unknown link says so. Accessible and fitting a phone.
import type { Browser, Page } from "@playwright/test";
import { expect, expectAccessible, expectFitsPhone, screenshots, test, ui } from "./fixtures";

const origin = () => ({ origin: ui().baseUrl });

/** `inviter` (a signed-in page) invites `email`: the link's path. */
async function invite(inviter: Page, email: string, role = "support") {
  const me = await (await inviter.request.get("/api/console/me")).json();
  const invitations = `/api/v1/organizations/${me.organization.organization_id}/invitations`;
  const res = await inviter.request.post(invitations, { data: { email, role }, headers: origin() });
  expect(res.status(), await res.text()).toBe(201);
  return new URL((await res.json()).url).pathname;
}

/** A page of a new browser, signed out. */
async function signedOut(browser: Browser) {
  const context = await browser.newContext({ baseURL: ui().baseUrl });
  return { page: await context.newPage(), close: () => context.close() };
}

async function checkPage(page: Page, name: string) {
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, name);
}

test("an account of another organization signs in from the link and accepts; the link then says it was used", async ({
  as,
  browser,
}) => {
  test.setTimeout(150_000);
  // An account that exists, in Globex only.
  const email = `globex-${Date.now()}@ui.test`;
  const password = "globex password 1";
  const globex = await as("adminB");
  const joinGlobex = await signedOut(browser);
  await joinGlobex.page.goto(await invite(globex, email), { waitUntil: "networkidle" });
  await joinGlobex.page.getByLabel("Choose a password").fill(password);
  await joinGlobex.page.getByRole("button", { name: "Create account and join" }).click();
  await expect(joinGlobex.page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await joinGlobex.close();

  const acme = await as("adminA");
  // Support: Acme keeps admin-a as its only admin (members.spec.ts's last-admin test relies on it).
  const link = await invite(acme, email);
  const { page, close } = await signedOut(browser);
  try {
    await page.goto(link, { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { name: "Join Acme" })).toBeVisible();
    const details = page.getByRole("definition");
    await expect(details.nth(0)).toHaveText("Acme");
    await expect(details.nth(1)).toHaveText(email);
    await expect(details.nth(2)).toContainText("support: reads everything");
    await expect(details.nth(3)).toHaveText("admin-a@ui.test");
    await expect(page.getByText("7 d left")).toBeVisible();
    await checkPage(page, "invite-signed-out");

    // The same form whether or not an account exists; for an existing one it refuses, and sends to sign-in.
    await page.getByLabel("Choose a password").fill("an attacker's password");
    await page.getByRole("button", { name: "Create account and join" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("An account with this email already exists");
    const signInLink = page.getByRole("link", { name: "Sign in to accept" }).last();
    const href = (await signInLink.getAttribute("href"))!;
    expect(href).toBe(`/login?next=${encodeURIComponent(link)}`);
    // Filled before React has hydrated, the login form would lose what was typed: wait for its scripts.
    await page.goto(href, { waitUntil: "networkidle" });
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("an attacker's password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("Wrong email or password");
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();

    // Back on the invitation, signed in as the invited email: one button.
    await expect(page).toHaveURL(new RegExp(`${link}$`));
    await expect(page.getByText(`You are signed in as ${email}.`)).toBeVisible();
    await page.waitForLoadState("networkidle");
    await checkPage(page, "invite-signed-in");
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    // The console opens in Acme, where they are support now; Globex stays theirs.
    const org = page.getByLabel("Organization");
    await expect(org).toHaveValue(ui().orgA.organization_id);
    await expect(org.locator("option")).toHaveText(["Globex", "Acme"]);

    await page.goto(link);
    await expect(page.getByRole("heading", { name: "This invitation can no longer be used" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("already accepted");
    await checkPage(page, "invite-used");
  } finally {
    await close();
  }
});

test("signed in as someone else, the page says whose invitation it is and offers to sign out", async ({ as }) => {
  const email = `someone-${Date.now()}@ui.test`;
  const admin = await as("adminA");
  const link = await invite(admin, email);
  await admin.goto(link);
  await expect(admin.getByRole("main").getByRole("alert")).toContainText(
    `You are signed in as admin-a@ui.test, and this invitation is for ${email}.`,
  );
  await expect(admin.getByRole("button", { name: "Accept invitation" })).toHaveCount(0);
  await expect(admin.getByRole("button", { name: "Sign out" })).toBeVisible();
  await checkPage(admin, "invite-someone-else");
});

test("an unknown link says it is not valid, and shows nothing of any organization", async ({ browser }) => {
  const { page, close } = await signedOut(browser);
  try {
    await page.goto(`/invite/it_${"Z".repeat(43)}`);
    await expect(page.getByRole("heading", { name: "This invitation link is not valid" })).toBeVisible();
    await expect(page.getByRole("main")).not.toContainText("Acme");
    await expect(page.getByLabel("Choose a password")).toHaveCount(0);
    await checkPage(page, "invite-not-valid");
  } finally {
    await close();
  }
});
