// The console walked at 1280 and 375 px as admin and support: each defect found has the test that
// failed before its fix. Not-found pages with the way home, a form's errors in its own words, a key
// id searched opens the key, the overview's rows tell runs apart, the keys list's scope and expiry
// on a phone and the mint dialog's inline error, the header on a phone, the uploads table and the
// runs filters on a phone, and the deliveries table at 1280 px.
import type { Locator, Page } from "@playwright/test";
import {
  call,
  ECHO_AGENT,
  expect,
  expectAccessible,
  expectFitsPhone,
  management,
  screenshots,
  test,
  ui,
} from "./fixtures";

/** A path of the organization API: Acme's (org A) unless another is named. */
const orgApi = (path: string, org: "orgA" | "orgB" = "orgA") =>
  `/api/v1/organizations/${ui()[org].organization_id}${path}`;

const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 800 };

/** A table's own box scrolls sideways by this many pixels (0: every column shows). */
const tableOverflow = (table: Locator) =>
  table.evaluate((t) => {
    const box = t.parentElement!;
    return Math.max(t.scrollWidth - box.clientWidth, box.scrollWidth - box.clientWidth);
  });

async function mintKeyRecord(body: Record<string, unknown>) {
  const o = ui().orgA;
  const res = await call("POST", `/api/v1/organizations/${o.organization_id}/access-keys`, {
    auth: o.user_token,
    body: { permissions: ["agents:invoke"], ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { key_id: string; key: string };
}

test("an unknown address shows the console's own 'Page not found' with the way home, signed in or out", async ({
  as,
  browser,
}) => {
  const page = await as("supportA");
  const answer = await page.goto("/no-such-page/at-all");
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the overview" })).toHaveAttribute("href", "/");
  // Inside the console: its navigation and search are there.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeAttached();
  await expect(page.getByRole("searchbox", { name: /Search/ })).toBeVisible();
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "walk-not-found");
  await page.getByRole("link", { name: "Go to the overview" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  const visitor = await (await browser.newContext({ baseURL: ui().baseUrl })).newPage();
  await visitor.goto("/no-such-page");
  await expect(visitor.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
  await expect(visitor.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
  await visitor.context().close();
});

test("an unknown agent id says the agent is not found, as runs, sessions and keys do", async ({ as }) => {
  const page = await as("adminA");
  await page.goto("/agents/agt_00000000doesnotexist");
  await expect(page.getByRole("heading", { name: "Agent not found" })).toBeVisible();
  await expect(page.getByText("There is no agent agt_00000000doesnotexist in this organization.")).toBeVisible();
  await expect(page.getByRole("link", { name: "All agents" })).toHaveAttribute("href", "/agents");
  await expect(page.getByText("could not be loaded")).toHaveCount(0);
  await expectAccessible(page);
  await expectFitsPhone(page);
});

test("an empty new alert rule says what each field needs in the form's words, never 'not a string'", async ({ as }) => {
  const page = await as("adminA");
  await page.goto("/alerts");
  await page
    .getByRole("button", { name: /New rule|Create your first rule/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: "New alert rule" });
  await dialog.getByRole("button", { name: "Create rule" }).click();
  await expect(dialog.getByRole("alert").filter({ hasText: "Alert above (%) must be a number." })).toBeVisible();
  await expect(dialog).not.toContainText(/not a string|not null|expected/);
  await screenshots(page, "walk-alert-rule-errors");
});

test("support reads 'Only the organization's admins manage alert rules.' on the alerts page", async ({ as }) => {
  const page = await as("supportA");
  await page.goto("/alerts");
  await expect(page.getByText("Only the organization's admins manage alert rules.")).toBeVisible();
  await expect(page.getByText(/is managed by/)).toHaveCount(0);
});

test("searching a key_ id opens that key's page", async ({ as }) => {
  const { key_id } = await mintKeyRecord({ name: `walk search ${tag}` });
  const page = await as("supportA");
  await page.goto("/");
  const box = page.getByRole("searchbox", { name: /Search/ });
  await box.fill(key_id);
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/keys/${key_id}$`));
  await expect(page.getByRole("heading", { name: `walk search ${tag}`, level: 1 })).toBeVisible();
});

test("the overview's rows waiting for review name their run, so two runs of one agent differ", async ({ as }) => {
  const name = `walk review ${tag}`;
  const agent = await management.createAgent({
    name,
    kind: "workflow",
    runtime: { type: "echo" },
    workflow: {
      inputs: { rows: { type: "array", required: true } },
      items: { from: "rows" },
      steps: [{ id: "check", type: "review", when: "item.n >= 0", message: "check it" }],
    },
  });
  const key = await management.mintKey("orgA", "walk review");
  const runs: string[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: key, body: { rows: [{ n: i }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    runs.push(res.body.run_id);
  }
  const page = await as("supportA");
  for (const run of runs) {
    await expect
      .poll(async () => (await (await page.request.get(orgApi(`/runs/${run}`))).json()).status, {
        timeout: 30_000,
      })
      .toBe("needs_review");
  }
  await page.goto("/");
  const rows = page.getByRole("link").filter({ hasText: name });
  await expect(rows).toHaveCount(2);
  const texts = await rows.allTextContents();
  expect(texts[0]).not.toBe(texts[1]);
  for (const run of runs)
    await expect(rows.filter({ has: page.getByTitle(run) })).toHaveAttribute("href", `/runs/${run}`);
});

test("the keys list shows each key's agents, and on a phone its expiry; a rate limit of 0 errs inline", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT(`walk scoped ${tag}`));
  const in30 = new Date(Date.now() + 30 * 86_400_000).toISOString();
  await mintKeyRecord({ name: `walk scoped key ${tag}`, agent_ids: [agent.agent_id], expires_at: in30 });
  const page = await as("adminA");
  await page.goto("/keys");
  const row = page.getByRole("row").filter({ hasText: `walk scoped key ${tag}` });
  await expect(row.getByRole("cell", { name: `walk scoped ${tag}`, exact: true })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Agents" })).toBeVisible();
  expect(await tableOverflow(page.getByRole("table", { name: "Access Keys" }))).toBeLessThanOrEqual(0);
  await page.setViewportSize(PHONE);
  const phoneLine = row.locator("p").filter({ hasText: "Agents:" });
  await expect(phoneLine).toBeVisible();
  await expect(phoneLine).toContainText(`walk scoped ${tag}`);
  await expect(phoneLine).toContainText(/expires in (30|29) days/);
  await expectFitsPhone(page);
  await page.setViewportSize(LAPTOP);
  await screenshots(page, "walk-keys");

  await page.getByRole("button", { name: "Mint key" }).click();
  const dialog = page.getByRole("dialog", { name: "Mint an Access Key" });
  await dialog.getByLabel("Name", { exact: true }).fill(`walk zero ${tag}`);
  const rate = dialog.getByLabel(/Rate limit/);
  await rate.fill("0");
  await dialog.getByRole("button", { name: "Mint key" }).click();
  await expect(
    dialog.getByRole("alert").filter({ hasText: "Rate limit (requests a minute) must be at least 1." }),
  ).toBeVisible();
  // The browser's own bubble never answered first: the field is valid to it.
  expect(await rate.evaluate((el) => (el as HTMLInputElement).validity.valid)).toBe(true);
});

/** Two boxes overlap when their rectangles share any area. */
function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test("at 375 px the header's organization name and user menu never overlap", async ({ as }) => {
  for (const role of ["adminA", "supportA", "multi"] as const) {
    const page = await as(role);
    await page.setViewportSize(PHONE);
    for (const path of ["/", "/runs", "/keys"]) {
      await page.goto(path);
      const org = page.getByTestId("header-organization");
      const menu = page.getByRole("banner").getByRole("button", { name: /@/ });
      const [a, b] = [await org.boundingBox(), await menu.boundingBox()];
      expect(a && b, `${role} ${path}`).toBeTruthy();
      expect(overlap(a!, b!), `${role} ${path}: organization ${JSON.stringify(a)} and menu ${JSON.stringify(b)}`).toBe(
        false,
      );
      // Both inside the screen.
      expect(b!.x + b!.width).toBeLessThanOrEqual(375);
      await expectFitsPhone(page);
    }
  }
});

test("at 375 px the uploaded files table fits the screen", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`walk files ${tag}`));
  const key = await management.mintKey("orgA", "walk files");
  const form = new FormData();
  form.append("file", new Blob(["x".repeat(2048)], { type: "text/plain" }), "quarterly-report-final-version.txt");
  const up = await fetch(`${ui().baseUrl}/api/agents/${agent.agent_id}/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  expect(up.status).toBe(200);
  const page = await as("supportA");
  await page.setViewportSize(PHONE);
  await page.goto(`/uploads?agent_id=${agent.agent_id}`);
  const table = page.getByRole("table", { name: "Files" });
  await expect(table).toContainText("quarterly-report-final-version.txt");
  expect(await tableOverflow(table)).toBeLessThanOrEqual(0);
  await expectFitsPhone(page);
});

async function firstScreenRows(page: Page) {
  // The first row of the list starts within the first screen.
  const first = page.getByRole("table").first().getByRole("row").nth(1);
  const box = await first.boundingBox();
  return box ? box.y : Infinity;
}

test("at 375 px the runs filters fold behind a Filters button, so the runs start on the first screen", async ({
  as,
}) => {
  const page = await as("supportA");
  await page.setViewportSize(PHONE);
  await page.goto("/runs");
  const form = page.getByRole("search", { name: "Filter runs" });
  await expect(form).toBeHidden();
  const toggle = page.getByRole("button", { name: "Filters" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  expect(await firstScreenRows(page)).toBeLessThan(PHONE.height);
  await toggle.click();
  await expect(form).toBeVisible();
  await form.getByLabel("Status").selectOption("failed");
  await expect(page).toHaveURL(/status=failed/);
  await expectAccessible(page);
  // From the sm width on, the filters always show.
  await page.setViewportSize(LAPTOP);
  await expect(page.getByRole("search", { name: "Filter runs" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Filters|Hide filters)/ })).toBeHidden();
});

test("at 1280 px the deliveries table shows 'Next attempt' without a sideways scroll", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`walk deliveries of the support team ${tag}`));
  const key = await management.mintKey("orgA", "walk deliveries");
  // Nobody listens on port 9: the delivery stays pending with its next attempt due. A receiver's
  // URL as long as real ones are.
  const res = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
    auth: key,
    body: {
      message: "callback me",
      callback_url: "http://127.0.0.1:9/integrations/agent-webhook-service/completions?tenant=acme-production",
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const page = await as("adminA");
  await page.goto(`/webhooks?agent_id=${agent.agent_id}`);
  const table = page.getByRole("table", { name: /deliveries/i });
  await expect(table.getByRole("row")).toHaveCount(2, { timeout: 30_000 });
  const header = table.getByRole("columnheader", { name: "Next attempt" });
  await expect(header).toBeVisible();
  expect(await tableOverflow(table)).toBeLessThanOrEqual(0);
  const box = (await header.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(LAPTOP.width);
  await screenshots(page, "walk-deliveries");
});
