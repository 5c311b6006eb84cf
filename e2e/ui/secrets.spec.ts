// Organization secrets in the console: an admin stores a model key once, chooses it in an agent's
// form, rotates it, and never sees it again; support members see none of it.
import { startFakeUpstream } from "../../test-support/runtime";
import { call, expect, expectAccessible, management, screenshots, test, ui } from "./fixtures";

const completion = (content: string) => ({
  id: "c",
  object: "chat.completion",
  created: 1,
  model: "ui-model",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
});

test("an admin stores a key, an agent uses it by name, a rotation takes effect, and no page shows it", async ({
  as,
}) => {
  const upstream = await startFakeUpstream();
  upstream.answer(() => ({ json: completion("pong") }));
  try {
    const stamp = Date.now().toString(36);
    const name = `openai-${stamp}`;
    const first = `sk-ui-first-${stamp}-0123456789`;
    const second = `sk-ui-second-${stamp}-9876543210`;
    const page = await as("adminA");
    await page.goto("/settings/secrets");
    await expect(page.getByRole("heading", { name: "Secrets", level: 1 })).toBeVisible();
    await page
      .getByRole("button", { name: /Add (your first )?secret/ })
      .first()
      .click();
    const add = page.getByRole("dialog", { name: "Add a secret" });
    await add.getByLabel("Name").fill(name);
    await add.getByLabel("Value").fill(first);
    await expect(add.getByLabel("Value")).toHaveAttribute("type", "password");
    await add.getByRole("button", { name: "Save secret" }).click();
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText(`••••${first.slice(-4)}`);
    await page.reload();
    await expect(row).toBeVisible();
    expect(await page.content()).not.toContain(first.slice(0, -4));
    await expectAccessible(page);
    await screenshots(page, "secrets-list");

    // The agent form offers the secret by name.
    await page.goto("/agents/new");
    const agentName = `llm ${stamp}`;
    await page.getByLabel("Name", { exact: true }).fill(agentName);
    await page.getByLabel("Runtime type").selectOption("openai");
    await page.getByLabel("Base URL").fill(`${upstream.url}/v1`);
    await page.getByLabel("Model").fill("ui-model");
    await page.getByLabel("API key").selectOption(name);
    await page.getByRole("button", { name: "Create agent" }).click();
    await expect(page).toHaveURL(/\/agents\/agt_[0-9A-Za-z]+$/);
    const agentId = new URL(page.url()).pathname.split("/").pop()!;
    await page.getByRole("tab", { name: "Settings" }).click();
    await expect(page.getByLabel("API key")).toHaveValue(name);
    await expectAccessible(page);
    await screenshots(page, "agent-openai-secret");

    const key = await management.mintKey("orgA", "secrets-spec");
    const reply = await call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body: { message: "ping" } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(upstream.requests.at(-1)!.headers.authorization).toBe(`Bearer ${first}`);

    // Rotate from the list; the agent is listed as a user of the secret, which cannot be deleted.
    await page.goto("/settings/secrets");
    await expect(row.getByRole("link", { name: agentName })).toBeVisible();
    await row.getByRole("button", { name: `Replace ${name}` }).click();
    const replace = page.getByRole("dialog", { name: `Replace the value of ${name}` });
    await replace.getByLabel("Value").fill(second);
    await replace.getByRole("button", { name: "Replace value" }).click();
    await expect(row).toContainText(`••••${second.slice(-4)}`);
    await call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body: { message: "ping" } });
    expect(upstream.requests.at(-1)!.headers.authorization).toBe(`Bearer ${second}`);

    await row.getByRole("button", { name: `Delete ${name}` }).click();
    const confirm = page.getByRole("dialog", { name: `Delete ${name}?` });
    await expect(confirm).toContainText("Agents still name this secret");
    await expect(confirm.getByRole("button", { name: "Delete secret" })).toBeDisabled();
    await screenshots(page, "secrets-delete-in-use");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    for (const value of [first, second]) expect(await page.content()).not.toContain(value);
  } finally {
    await upstream.close();
  }
});

test("a support member has no Secrets page, link or API", async ({ as }) => {
  const page = await as("supportA");
  await page.goto("/settings/secrets");
  await expect(page.getByText("Admins only")).toBeVisible();
  await expect(page.getByRole("link", { name: "Secrets" })).toHaveCount(0);
  const res = await page.request.get(`/api/v1/organizations/${ui().orgA.organization_id}/secrets`);
  expect(res.status()).toBe(403);
  await screenshots(page, "support-secrets");
});
