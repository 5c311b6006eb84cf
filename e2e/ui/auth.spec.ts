// Sign-in, sign-out, wrong passwords, the lockout, and pages refusing signed-out visitors.
import { A_THIRD_OF_EACH_KIND } from "../../test-support/redirect-bypasses";
import { call, expect, expectAccessible, screenshots, test, ui } from "./fixtures";

const DASHBOARD_PAGES = ["/", "/keys", "/webhooks", "/agents", "/sessions", "/runs", "/uploads", "/members", "/audit"];

test("every console page sends a signed-out visitor to /login and back after sign-in", async ({ page }) => {
  for (const p of DASHBOARD_PAGES) {
    await page.goto(p);
    await expect(page, p).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(p).replace(/[/]/g, "%2F")}$`));
  }
  await page.goto("/login?next=%2Fkeys");
  await page.getByLabel("Email").fill(ui().users.adminA.email);
  await page.getByLabel("Password").fill(ui().password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/keys$/);
  await expect(page.getByRole("heading", { name: "Access Keys" })).toBeVisible();
});

test("the login page is accessible and fits a phone", async ({ page }) => {
  await page.goto("/login");
  await expectAccessible(page);
  await screenshots(page, "login");
});

test("a wrong password is refused with a clear message, and the right one signs in and out", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(ui().users.adminA.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("Password").fill(ui().password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();

  await page.getByRole("button", { name: ui().users.adminA.email }).click();
  await page.getByRole("menuitem", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/keys");
  await expect(page).toHaveURL(/\/login\?next=%2Fkeys$/);
  const me = await page.request.get("/api/console/me");
  expect(me.status()).toBe(401);
});

test("signing out while a console request is in flight ends on /login, not on a page's 401 redirect", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: ui().baseUrl });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(ui().users.adminA.email);
  await page.getByLabel("Password").fill(ui().password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  // The overview's next refresh is held until sign-out has ended the session: it then gets the 401
  // of a dead session. The /login page is held until that 401 has reached the page.
  let releaseOverview!: () => void;
  const overviewHeld = new Promise<void>((r) => (releaseOverview = r));
  let overviewRequested!: () => void;
  const overviewInFlight = new Promise<void>((r) => (overviewRequested = r));
  let overviewAnswered!: () => void;
  const overviewDone = new Promise<void>((r) => (overviewAnswered = r));
  await page.route(`**/api/v1/organizations/${ui().orgA.organization_id}/overview`, async (route) => {
    overviewRequested();
    await overviewHeld;
    await route.continue();
  });
  page.on(
    "requestfinished",
    (r) => r.url().endsWith(`/api/v1/organizations/${ui().orgA.organization_id}/overview`) && overviewAnswered(),
  );
  await page.route("**/login*", async (route) => {
    await overviewDone;
    await page.waitForTimeout(300); // let the page handle the 401 before the navigation commits
    await route.continue();
  });
  await overviewInFlight; // the page refreshes the overview every 10 s
  await page.getByRole("button", { name: ui().users.adminA.email }).click();
  const signedOut = page.waitForResponse((r) => r.url().endsWith("/api/console/auth/sign-out"));
  // Not awaited yet: a click that starts a navigation waits for it, and this one is held until the
  // overview is released below (awaiting the click first would wait on itself whenever the sign-out
  // answer came before the click returned).
  const clicked = page.getByRole("menuitem", { name: "Sign out", exact: true }).click();
  expect((await signedOut).status()).toBe(200);
  releaseOverview();
  await clicked;
  await expect(page).toHaveURL(/\/login$/);
  await context.close();
});

test("five failed sign-ins lock the email out for 15 minutes, even with the right password", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("lockout@ui.test");
  for (let i = 1; i <= 4; i++) {
    await page.getByLabel("Password").fill(`wrong ${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
  }
  await page.getByLabel("Password").fill("wrong 5");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Too many failed sign-ins. Try again in 15 minutes." }),
  ).toBeVisible();

  await page.getByLabel("Password").fill(ui().password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Too many failed sign-ins" })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  const res = await call("POST", "/api/console/auth/sign-in", {
    body: { email: "lockout@ui.test", password: ui().password },
    headers: { origin: ui().baseUrl },
  });
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe("rate_limited");
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
});

test("sign out everywhere ends the user's other sessions", async ({ browser }) => {
  const sessions = [];
  for (let i = 0; i < 2; i++) {
    const context = await browser.newContext({ baseURL: ui().baseUrl });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill("everywhere@ui.test");
    await page.getByLabel("Password").fill(ui().password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    sessions.push({ context, page });
  }
  const [first, second] = sessions as [(typeof sessions)[0], (typeof sessions)[0]];
  // The second tab leaves the console first: its background refetches would otherwise meet the ended
  // session on their own and redirect it (to /login?next=%2F) while it navigates below.
  await second.page.goto("about:blank");
  await first.page.getByRole("button", { name: "everywhere@ui.test" }).click();
  await first.page.getByRole("menuitem", { name: "Sign out everywhere" }).click();
  await expect(first.page).toHaveURL(/\/login$/);
  await second.page.goto("/runs");
  await expect(second.page).toHaveURL(/\/login\?next=%2Fruns$/);
  for (const s of sessions) await s.context.close();
});

test("a state-changing console request from another site is refused", async ({ as }) => {
  const page = await as("adminA");
  const res = await page.request.post(`/api/v1/organizations/${ui().orgA.organization_id}/access-keys`, {
    data: { name: "csrf", permissions: ["agents:invoke"] },
    headers: { origin: "https://evil.example" },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.code).toBe("cross_site_request");
});

/** A sample of the bypass forms that matter to a form that navigates with window.location. */
const FORM_BYPASSES = [
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "//evil.example",
  "/\\evil.example",
  "\\/evil.example",
  "/.//evil.example",
  "/%5cevil.example",
  "javascript:alert(document.domain)",
  "data:text/html,<script>alert(1)</script>",
  "https://evil.example/",
  "https://127.0.0.1@evil.example",
  "/@evil.example",
  "  //evil.example",
  "\u0000//evil.example",
];

test("the login form sends the browser only to a path of this site, whatever next says", async ({ browser }) => {
  const base = ui().baseUrl;
  for (const next of FORM_BYPASSES) {
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await page.getByLabel("Email").fill(ui().users.adminA.email);
    await page.getByLabel("Password").fill(ui().password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.pathname !== "/login", { timeout: 30_000 });
    await page.waitForLoadState();
    expect(new URL(page.url()).origin, `${JSON.stringify(next)} -> ${page.url()}`).toBe(base);
    expect(dialogs, JSON.stringify(next)).toEqual([]);
    await context.close();
  }
});

test("a signed-in visit to /login?next= stays on this site for each kind of bypass form", async ({ as }) => {
  const page = await as("adminA");
  const base = ui().baseUrl;
  for (const next of A_THIRD_OF_EACH_KIND) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    expect(new URL(page.url()).origin, `${JSON.stringify(next).slice(0, 60)} -> ${page.url()}`).toBe(base);
  }
});
