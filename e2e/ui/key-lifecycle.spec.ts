// Access Keys past minting in the console: an expiry at mint (and on the overview), the warning for
// a key with no permission, rolling through a grace period (its end reached by moving the server's key
// clock, never by sleeping), and the usage preview before revoking and on a key's page.
import {
  call,
  ECHO_AGENT,
  expect,
  expectAccessible,
  management,
  screenshots,
  setServerClockAhead,
  test,
  ui,
} from "./fixtures";

const keysPath = () => `/api/v1/organizations/${ui().orgA.organization_id}/access-keys`;

async function mintViaApi(name: string) {
  const res = await call("POST", keysPath(), { auth: ui().orgA.user_token, body: { name } });
  expect(res.status).toBe(201);
  return res.body as { key_id: string; key: string; start: string };
}

test("mint with an expiry, the no-permission warning, and the overview's keys expiring soon", async ({ as }) => {
  const page = await as("adminA");
  await page.goto("/keys");
  await page.getByRole("button", { name: "Mint key" }).click();
  const dialog = page.getByRole("dialog", { name: "Mint an Access Key" });
  await dialog.getByLabel("Name", { exact: true }).fill("expiring-soon");
  // No permission at all: a warning, and minting needs an explicit confirm.
  await dialog.getByRole("checkbox", { name: /agents:invoke/ }).uncheck();
  await expect(dialog.getByText("This key has no permission at all.")).toBeVisible();
  await dialog.getByRole("button", { name: "Mint key" }).click();
  // Not minted: the browser holds the form until the confirm is ticked.
  await expect(dialog).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Copy your new Access Key" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "keys-no-permission-warning");
  await dialog.getByRole("checkbox", { name: /agents:invoke/ }).check();
  await expect(dialog.getByText("This key has no permission at all.")).toHaveCount(0);
  await dialog.getByLabel("Expiry").selectOption({ label: "In 7 days" });
  await dialog.getByRole("button", { name: "Mint key" }).click();
  const shown = page.getByRole("dialog", { name: "Copy your new Access Key" });
  await shown.getByRole("button", { name: "I have stored it" }).click();
  const row = page.getByRole("row").filter({ hasText: "expiring-soon" });
  await expect(row).toContainText("expires in 7 days");
  await expect(row).toContainText("active");

  await page.goto("/");
  const soon = page.locator("section").filter({
    has: page.getByRole("heading", { name: "Keys expiring within 7 days" }),
  });
  await expect(soon).toContainText("expiring-soon");
  await expect(soon).toContainText("expires in 7 days");
  await screenshots(page, "overview-keys-expiring");
});

test("a key minted to expire in 2 days reads 2 days (one rounding, as its alert's days left)", async ({ as }) => {
  const o = ui().orgA;
  const name = `two-days ${Date.now()}`;
  const minted = await call("POST", `/api/v1/organizations/${o.organization_id}/access-keys`, {
    auth: o.user_token,
    body: { name, permissions: ["agents:invoke"], expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString() },
  });
  expect(minted.status).toBe(201);
  const page = await as("adminA");
  await page.goto("/keys");
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("expires in 2 days");
});

test("roll a key through its grace period: both keys linked with the time left, then the old one revoked", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT("roll agent"));
  const old = await mintViaApi("roll-me");
  const page = await as("adminA");
  await page.goto("/keys");
  const oldRow = page.getByRole("row").filter({ hasText: old.start });
  await oldRow.getByRole("button", { name: "Roll roll-me" }).click();
  const dialog = page.getByRole("dialog", { name: "Roll roll-me?" });
  await dialog.getByLabel("Grace period for the old key").selectOption({ label: "1 hour" });
  await dialog.getByRole("button", { name: "Roll key" }).click();
  const shown = page.getByRole("dialog", { name: "Copy the new Access Key" });
  const raw = (await shown.getByTestId("raw-key").textContent())!.trim();
  expect(raw).toMatch(/^ak_/);
  await expect(shown).toContainText("keeps working for 1 hour");
  await shown.getByRole("button", { name: "I have stored it" }).click();

  const list = await call("GET", `${keysPath()}?limit=100`, { auth: ui().orgA.user_token });
  const successor = list.body.access_keys.find(
    (k: { rolled_from_key_id: string }) => k.rolled_from_key_id === old.key_id,
  );
  await expect(oldRow).toContainText(`rolled to ${successor.key_id}`);
  await expect(oldRow).toContainText(/(1 h|59 min) left of grace/);
  await expect(oldRow.getByText("rolled", { exact: true })).toBeVisible();
  const newRow = page.getByRole("row").filter({ hasText: `rolled from ${old.key_id}` });
  await expect(newRow).toContainText("active");
  await expectAccessible(page);
  await screenshots(page, "keys-rolled");

  // Both keys work in the grace.
  for (const auth of [old.key, raw]) {
    const res = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth, body: { message: "hi" } });
    expect(res.status).toBe(200);
  }

  // The key's page shows the link and the time left.
  await page.goto(`/keys/${old.key_id}`);
  await expect(page.getByRole("heading", { name: "roll-me" })).toBeVisible();
  await expect(page.getByText(`rolled to ${successor.key_id}`)).toBeVisible();
  await expect(page.getByText("Old key refused from")).toBeVisible();

  // The grace ends: the server's key clock is moved past it (no sleeping); the old key is refused at
  // once, and the worker's sweep writes its revocation down.
  setServerClockAhead(3_600_000 + 5_000);
  try {
    const refusedAtOnce = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
      auth: old.key,
      body: { message: "hi" },
    });
    expect(refusedAtOnce.status).toBe(401);
    await expect
      .poll(
        async () =>
          (await call("GET", `${keysPath()}?limit=100`, { auth: ui().orgA.user_token })).body.access_keys.find(
            (k: { key_id: string }) => k.key_id === old.key_id,
          ).revoked_at,
        { timeout: 90_000, intervals: [1000] },
      )
      .not.toBeNull();
  } finally {
    setServerClockAhead(0);
  }
  const works = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: raw, body: { message: "hi" } });
  expect(works.status).toBe(200);
  const refused = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
    auth: old.key,
    body: { message: "hi" },
  });
  expect(refused.status).toBe(401);
  await page.goto("/keys");
  const revokedRow = page.getByRole("row").filter({ hasText: old.start });
  await expect(revokedRow.getByText("revoked", { exact: true })).toBeVisible();
  await expect(revokedRow).not.toContainText("left of grace");
  await screenshots(page, "keys-roll-grace-ended");
});

test("the revoke dialog and the key's page show what uses the key", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT("preview agent"));
  const key = await mintViaApi("previewed");
  for (const user of ["customer-a", "customer-b"]) {
    const res = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
      auth: key.key,
      body: { message: "hi", user_id: user },
    });
    expect(res.status).toBe(200);
  }
  const page = await as("adminA");
  await page.goto("/keys");
  const row = page.getByRole("row").filter({ hasText: key.start });
  await row.getByRole("button", { name: "Revoke previewed" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke previewed?" });
  await expect(dialog).toContainText("What uses it");
  await expect(dialog).toContainText("customer-a, customer-b");
  await expect(dialog).toContainText("preview agent");
  await expect(dialog.getByText("Requests, last 24 hours").locator("..")).toContainText("2");
  await expectAccessible(page);
  await screenshots(page, "keys-revoke-preview");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await page.goto(`/keys/${key.key_id}`);
  await expect(page.getByRole("heading", { name: "What uses it" })).toBeVisible();
  await expect(page.getByText("Sessions started").locator("..")).toContainText("2");
  // The key's usage charts (its two triggers, from the rollups).
  await expect(page.getByRole("region", { name: "Usage" }).getByText("2 triggers")).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "key-page");
});
