// Access Keys in the console: minted once, usable at once, revoked from the page.
import { call, ECHO_AGENT, expect, expectAccessible, management, screenshots, test, ui } from "./fixtures";

test("an admin mints a key, sees it once, uses it, revokes it, and the API refuses it", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT("keys test agent"));
  const page = await as("adminA");
  await page.goto("/keys");
  await page.getByRole("button", { name: "Mint key" }).click();
  const dialog = page.getByRole("dialog", { name: "Mint an Access Key" });
  await dialog.getByLabel("Name", { exact: true }).fill("browser-minted");
  await expect(dialog.getByText("Empty: the service default")).toBeVisible();
  await dialog.getByLabel(/Rate limit/).fill("120");
  await dialog.getByRole("button", { name: "Mint key" }).click();

  const shown = page.getByRole("dialog", { name: "Copy your new Access Key" });
  await expect(shown).toContainText("This is the only time the key is shown");
  await expect(shown.getByRole("button", { name: "Copy key" })).toBeVisible();
  const raw = (await shown.getByTestId("raw-key").textContent())!.trim();
  expect(raw).toMatch(/^ak_[0-9A-Za-z]{43}$/);
  await screenshots(page, "keys-minted-dialog");
  await shown.getByRole("button", { name: "I have stored it" }).click();

  // Shown once: the table and a reload never show it again.
  await expect(page.getByRole("table", { name: "Access Keys" })).toContainText("browser-minted");
  await page.reload();
  await expect(page.getByRole("table", { name: "Access Keys" })).toContainText(raw.slice(0, 8));
  expect(await page.content()).not.toContain(raw);
  // The limit chosen in the dialog is the key's, shown in its row and applied by the API.
  await expect(page.getByRole("row").filter({ hasText: "browser-minted" })).toContainText("120/min");

  const ok = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: raw, body: { message: "hi" } });
  expect(ok.status).toBe(200);
  expect(ok.headers.get("ratelimit-limit")).toBe("120");

  const row = page.getByRole("row").filter({ hasText: "browser-minted" });
  await row.getByRole("button", { name: "Revoke browser-minted" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke browser-minted?" });
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(row.getByText("revoked")).toBeVisible();

  // The revoking instance evicts its cache at once.
  const refused = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: raw, body: { message: "hi" } });
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe("unauthorized");
});

test("a support member sees the keys read-only and a crafted mint request gets 403", async ({ as }) => {
  const page = await as("supportA");
  await page.goto("/keys");
  await expect(page.getByRole("heading", { name: "Access Keys" })).toBeVisible();
  await expect(page.getByText("You have read access.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Mint/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
  await expectAccessible(page);
  const res = await page.request.post(`/api/v1/organizations/${ui().orgA.organization_id}/access-keys`, {
    data: { name: "sneaky", permissions: ["agents:invoke"] },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.code).toBe("forbidden");
});
