// Agent versions in the console (docs/console.md, Versions): the form saves a draft that triggers
// never get, the Versions tab lists and compares versions, Publish previews what changes for live
// traffic, a canary rollout shows both versions side by side and is rolled back after a confirmation,
// an old version is restored as a draft; support members read versions and diffs and may change
// nothing (the API refuses them too); replies and runs name their version.
import type { Page } from "@playwright/test";
import {
  call,
  ECHO_AGENT,
  expect,
  expectAccessible,
  expectFitsPhone,
  management,
  ROWS_WORKFLOW_AGENT,
  screenshots,
  test,
  ui,
} from "./fixtures";

const versionsTable = (page: Page) => page.getByRole("table", { name: "Versions" });
const row = (page: Page, version: number) => versionsTable(page).locator(`tr[data-version="${version}"]`);
const banner = (page: Page) => page.getByRole("region", { name: "Unpublished draft" });

/** The agent's echo delay in the form of the Settings tab, saved as a draft. */
async function saveDelayAsDraft(page: Page, agentId: string, delay: string, draft: number) {
  await page.goto(`/agents/${agentId}?tab=settings`);
  await page.getByLabel("Delay (ms)").fill(delay);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText(`Saved as draft version ${draft}: not live until published.`)).toBeVisible();
}

test("an admin's edit is a draft triggers never get; compare, publish with a preview, canary at 30 %, roll back, restore", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT(`versions ${Date.now()}`));
  const key = await management.mintKey("orgA", "versions");
  const page = await as("adminA");

  // The form saves a draft: the banner says so, and triggers keep getting version 1.
  await saveDelayAsDraft(page, agent.agent_id, "5", 2);
  await expect(banner(page)).toContainText("Unpublished draft: version 2 (made from 1).");
  const stored = await management.getAgent(agent.agent_id);
  expect(stored).toMatchObject({ published_version: 1, draft_version: 2, rollout: null });
  expect(stored.runtime.delay_ms).toBe(0);
  const trigger = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
    auth: key,
    body: { message: "still version 1" },
  });
  expect(trigger.status).toBe(200);
  expect(trigger.body.agent_version).toBe(1);

  // The Versions tab: the draft and the published version; Compare shows the change highlighted.
  await page.getByRole("tab", { name: "Versions" }).click();
  await expect(page).toHaveURL(/[?&]tab=versions/);
  await expect(row(page, 2)).toContainText("draft");
  await expect(row(page, 1)).toContainText("published");
  await expect(row(page, 1)).toContainText("100 %");
  await row(page, 2).getByRole("button", { name: "Compare version 2" }).click();
  await expect(page).toHaveURL(/[?&]from=1&to=2/);
  const changes = page.getByRole("list", { name: "Changes from version 1 to version 2" });
  const change = changes.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "runtime.delay_ms" }) });
  await expect(change).toHaveAttribute("data-change", "changed");
  await expect(change.getByText("changed", { exact: true })).toBeVisible();
  for (const [version, value] of [
    ["Version 1", "0"],
    ["Version 2", "5"],
  ] as const) {
    const side = change.getByRole("figure", { name: version }).locator("pre");
    await expect(side).toHaveText(value);
    await expect(side).toHaveClass(/bg-amber-50/);
  }
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "versions-diff");

  // Publish: the server's preview first, then version 2 serves everyone.
  await row(page, 2).getByRole("button", { name: "Publish version 2" }).click();
  let dialog = page.getByRole("dialog", { name: "Publish version 2" });
  await expect(dialog.getByTestId("publish-summary")).toContainText(
    "Replies in new sessions will use version 2; 1 open session",
  );
  await expect(dialog.getByTestId("publish-summary")).toContainText("version 1");
  await expect(dialog.getByRole("list", { name: "Changes" })).toContainText("runtime.delay_ms");
  await expectAccessible(page);
  await screenshots(page, "versions-publish-preview");
  await dialog.getByRole("button", { name: "Publish version 2" }).click();
  await expect(dialog).toBeHidden();
  await expect(banner(page)).toHaveCount(0);
  await expect(row(page, 2)).toContainText("published");
  await expect(row(page, 1)).toContainText("retired");
  expect(await management.getAgent(agent.agent_id)).toMatchObject({
    published_version: 2,
    draft_version: null,
    runtime: { type: "echo", delay_ms: 5 },
  });

  // A canary at 30 %, guarded by an error-rate rule of this agent (one that cannot fire here).
  const origin = new URL(page.url()).origin;
  const rule = await page.request.post(`/api/v1/organizations/${ui().orgA.organization_id}/alert-rules`, {
    headers: { origin },
    data: {
      name: `guard ${agent.name}`,
      kind: "error_rate",
      agent_id: agent.agent_id,
      threshold: 99,
      min_volume: 100000,
    },
  });
  expect(rule.status()).toBe(201);
  await saveDelayAsDraft(page, agent.agent_id, "7", 3);
  await banner(page).getByRole("button", { name: "Publish", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Publish version 3" });
  await expect(dialog.getByTestId("publish-summary")).toContainText("version 3");
  await dialog.getByRole("spinbutton", { name: "Share of new sessions and runs (%)" }).fill("30");
  await expect(dialog.getByTestId("publish-summary")).toContainText("(30 % of them: a canary)");
  await dialog.getByRole("checkbox", { name: new RegExp(`guard ${agent.name}`) }).check();
  await dialog.getByLabel("Note (optional)").fill("slower echo, carefully");
  await dialog.getByRole("button", { name: "Start rollout at 30 %" }).click();
  await expect(dialog).toBeHidden();

  // The rollout card: both versions side by side, live.
  const card = page.getByTestId("rollout-card");
  await expect(card.getByRole("heading", { name: /Rollout: version 3 serves 30 %/ })).toBeVisible();
  const figures = card.getByRole("table", { name: "Both versions since the rollout started" });
  await expect(figures.getByRole("columnheader", { name: "Version 3 (canary)" })).toBeVisible();
  await expect(figures.getByRole("columnheader", { name: "Version 2 (published)" })).toBeVisible();
  for (const figure of ["Traffic share", "Error rate", "Reply latency p50", "Reply latency p95", "Tokens", "Cost"])
    await expect(figures.getByRole("rowheader", { name: figure })).toBeVisible();
  await expect(figures.getByRole("row", { name: /Traffic share/ })).toContainText("30 %");
  await expect(figures.getByRole("row", { name: /Traffic share/ })).toContainText("70 %");
  await expect(card).toContainText("One guard rule rolls it back");
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "versions-rollout");

  // A new share.
  await card.getByRole("spinbutton", { name: "Share of version 3 (%)" }).fill("50");
  await card.getByRole("button", { name: "Change share" }).click();
  await expect(card.getByRole("heading", { name: /Rollout: version 3 serves 50 %/ })).toBeVisible();
  await expect(figures.getByRole("row", { name: /Traffic share/ })).toContainText("50 %");
  expect((await management.getAgent(agent.agent_id)).rollout).toMatchObject({
    version: 3,
    percent: 50,
    from_version: 2,
  });

  // Roll back, after a confirmation that says what serves next; Cancel first changes nothing.
  await card.getByRole("button", { name: "Roll back" }).click();
  dialog = page.getByRole("dialog", { name: "Roll back version 3?" });
  await expect(dialog).toContainText("Version 2 will serve all new sessions and runs again");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: "Roll back" }).click();
  await dialog.getByLabel("Note (optional)").fill("too slow");
  await dialog.getByRole("button", { name: "Roll back version" }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toHaveCount(0);
  expect(await management.getAgent(agent.agent_id)).toMatchObject({ published_version: 2, rollout: null });

  // Restore version 1: a new draft made from it, the banner again; live traffic unchanged.
  await page.goto(`/agents/${agent.agent_id}?tab=versions`);
  await expect(row(page, 3)).toContainText("rolled back");
  await expect(versionsTable(page)).toBeVisible();
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "versions-tab");
  await row(page, 1).getByRole("button", { name: "Restore version 1" }).click();
  dialog = page.getByRole("dialog", { name: "Restore version 1?" });
  await expect(dialog).toContainText("Nothing changes for live traffic until the draft is published.");
  await dialog.getByRole("button", { name: "Restore version" }).click();
  await expect(dialog).toBeHidden();
  await expect(banner(page)).toContainText("Unpublished draft: version 4 (made from 1).");
  await expect(row(page, 4)).toContainText("Restored from version 1");
  expect(await management.getAgent(agent.agent_id)).toMatchObject({ published_version: 2, draft_version: 4 });
});

test("a support member reads versions and diffs but has no publish, rollout, rollback or restore, and the API refuses them", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT(`versions support ${Date.now()}`));
  await management.updateAgent(agent.agent_id, { runtime: { type: "echo", delay_ms: 3 }, publish: true });
  await management.updateAgent(agent.agent_id, { runtime: { type: "echo", delay_ms: 4 } });
  const page = await as("supportA");
  await page.goto(`/agents/${agent.agent_id}`);
  await expect(banner(page)).toContainText("Unpublished draft: version 3 (made from 2).");
  await expect(banner(page).getByRole("button")).toHaveText(["Review changes"]);
  await banner(page).getByRole("button", { name: "Review changes" }).click();
  const changes = page.getByRole("list", { name: "Changes from version 2 to version 3" });
  await expect(changes.getByRole("heading", { name: "runtime.delay_ms" })).toBeVisible();
  await expect(changes.getByRole("listitem")).toHaveAttribute("data-change", "changed");
  await expect(row(page, 1)).toContainText("retired");
  await row(page, 1).getByRole("button", { name: "View version 1" }).click();
  const view = page.getByRole("dialog", { name: "Version 1" });
  await expect(view.getByLabel("Configuration (JSON, read-only)")).toHaveValue(/"type": "echo"/);
  await view.getByRole("button", { name: "Close" }).click();
  await expect(view).toBeHidden();
  await expect(page.getByRole("button", { name: /^(Publish|Restore|Roll back|Discard)/ })).toHaveCount(0);
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "versions-support");

  await page.getByRole("tab", { name: "Settings" }).click();
  await expect(page.getByText("You have read access. Admins edit agents.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Save/ })).toHaveCount(0);

  // Hiding the buttons is not the protection.
  const origin = new URL(page.url()).origin;
  const base = `/api/v1/organizations/${ui().orgA.organization_id}/agents/${agent.agent_id}`;
  for (const [method, path, data] of [
    ["POST", `${base}/publish`, { version: 3 }],
    ["POST", `${base}/rollout`, { percent: 50 }],
    ["POST", `${base}/rollback`, {}],
    ["POST", `${base}/versions/1/restore`, { base_version: 3 }],
    ["DELETE", `${base}/draft`, undefined],
  ] as const) {
    const res = await page.request.fetch(path, { method, data, headers: { origin } });
    expect(res.status(), `${method} ${path}`).toBe(403);
    expect((await res.json()).error.code).toBe("forbidden");
  }
  expect(await management.getAgent(agent.agent_id)).toMatchObject({ published_version: 2, draft_version: 3 });
});

test("an edit made meanwhile by someone else is refused with a reload; the draft is discarded after a confirmation", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT(`versions conflict ${Date.now()}`));
  const page = await as("adminA");
  await page.goto(`/agents/${agent.agent_id}?tab=settings`);
  await expect(page.getByLabel("Delay (ms)")).toHaveValue("0");
  // Another admin writes a draft after the form was read.
  await management.updateAgent(agent.agent_id, { runtime: { type: "echo", delay_ms: 9 } });
  await page.getByLabel("Delay (ms)").fill("1");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: "Someone else changed this agent: version 2 is newer. Reload to see it." }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Reload" }).click();
  await expect(page.getByRole("heading", { name: "Settings (draft version 2)" })).toBeVisible();
  await expect(page.getByLabel("Delay (ms)")).toHaveValue("9");
  expect((await management.getAgent(agent.agent_id)).draft_version).toBe(2);

  await banner(page).getByRole("button", { name: "Discard" }).click();
  const dialog = page.getByRole("dialog", { name: "Discard draft version 2?" });
  await dialog.getByRole("button", { name: "Discard draft" }).click();
  await expect(dialog).toBeHidden();
  await expect(banner(page)).toHaveCount(0);
  expect(await management.getAgent(agent.agent_id)).toMatchObject({ published_version: 1, draft_version: null });
});

test("the test console tries the draft or the published version, and the thread marks where the version changed", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT(`versions console ${Date.now()}`));
  await management.updateAgent(agent.agent_id, { runtime: { type: "echo", delay_ms: 1 } });
  const page = await as("adminA");
  await page.goto(`/agents/${agent.agent_id}`);
  const version = page.getByLabel("Version to try");
  await expect(version).toHaveValue("1");
  await version.selectOption({ label: "Draft (version 2)" });
  const message = page.getByLabel("Message", { exact: true });
  await message.fill("from the draft");
  await message.press("Enter");
  const replies = page.getByTestId("chat-reply");
  await expect(replies.nth(0).getByTestId("reply-meta")).toContainText("Version 2");
  await version.selectOption({ label: "Published (version 1)" });
  await message.fill("from the published one");
  await message.press("Enter");
  await expect(replies.nth(1).getByTestId("reply-meta")).toContainText("Version 1");

  await page.getByRole("link", { name: "View session" }).click();
  const thread = page.getByRole("list", { name: "Thread, oldest first" });
  const assistant = thread.getByRole("article", { name: "Assistant message" });
  await expect(assistant).toHaveCount(2);
  await expect(assistant.nth(0)).toContainText("version 2");
  await expect(assistant.nth(1)).toContainText("version 1");
  await expect(thread.getByTestId("version-mark")).toHaveText(["Version 1 from here"]);
  await expectAccessible(page);
  await screenshots(page, "versions-thread");
});

test("a run names the agent version it uses", async ({ as }) => {
  const agent = await management.createAgent(ROWS_WORKFLOW_AGENT(`versions run ${Date.now()}`));
  const page = await as("adminA");
  await page.goto(`/agents/${agent.agent_id}`);
  await page.getByLabel("Inputs (JSON)").fill(JSON.stringify({ rows: [1] }));
  await page.getByRole("button", { name: "Start run" }).click();
  const started = page.getByRole("status").filter({ hasText: "Runs started here" });
  await expect(started).toContainText("version 1");
  await started.getByRole("link", { name: /Open run/ }).click();
  await expect(page.getByText("Agent version")).toBeVisible();
  await expect(page.getByRole("link", { name: "version 1" })).toHaveAttribute(
    "href",
    `/agents/${agent.agent_id}?tab=versions`,
  );
});
