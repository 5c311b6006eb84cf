// The shared review inbox (docs/console.md, Reviews) and live updates: a new item appears without a
// reload, a claim is shown to a second member, reject asks for a reason and a confirmation, bulk
// decisions report each item, the Live switch pauses, and a thread shows a new message by itself.
import type { Page } from "@playwright/test";
import { call, ECHO_AGENT, expect, expectAccessible, expectFitsPhone, management, screenshots, test } from "./fixtures";

const REVIEWED = (name: string) => ({
  name,
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "check", type: "review", when: "item.n >= 0", message: "check the amount" }],
  },
});

async function trigger(key: string, agentId: string, n: number) {
  const res = await call("POST", `/api/agents/webhook/${agentId}`, {
    auth: key,
    body: { rows: Array.from({ length: n }, (_, i) => ({ n: i, amount: 100 + i })) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.run_id as string;
}

async function markDocument(page: Page) {
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
}
async function expectSameDocument(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
}

const inboxItems = (page: Page) => page.getByRole("list", { name: "Items waiting for review" }).getByRole("listitem");
/** One item by its name: a run's items are made in the same millisecond, so "oldest first" leaves their order open. */
const inboxItem = (page: Page, name: string) =>
  page
    .getByRole("list", { name: "Items waiting for review" })
    .getByRole("listitem", { name: `Review item: ${name}`, exact: true });

test("the inbox shows a new item live; a claim shows to a second member; reject asks a reason; bulk approve", async ({
  as,
}) => {
  const name = `inbox ${Date.now()}`;
  const agent = await management.createAgent(REVIEWED(name));
  const key = await management.mintKey("orgA", "reviews ui");
  const admin = await as("adminA");
  await admin.goto(`/reviews?agent_id=${agent.agent_id}`);
  await expect(admin.getByRole("heading", { name: "Reviews", level: 1 })).toBeVisible();
  await expect(admin.getByRole("switch")).toHaveAttribute("aria-checked", "true");
  await expect(admin.getByText("No items match these filters")).toBeVisible();
  await markDocument(admin);

  await trigger(key, agent.agent_id, 3);
  await expect(inboxItems(admin)).toHaveCount(3, { timeout: 15_000 });
  await expectSameDocument(admin);
  await expect(inboxItem(admin, `${name} item 0`)).toContainText("Nobody is reviewing it");

  // Opening item 0 claims it; the second member sees who holds it, and cannot decide it without taking over.
  await admin.getByRole("button", { name: `Review ${name} item 0` }).click();
  const dialog = admin.getByRole("dialog", { name: `Review ${name} item 0` });
  await expect(dialog.getByText("You are reviewing this item")).toBeVisible();

  const support = await as("supportA");
  await support.goto(`/reviews?agent_id=${agent.agent_id}`);
  await expect(inboxItem(support, `${name} item 0`)).toContainText(/Being reviewed by .+ \(1[45] min left\)/);
  await support.getByRole("button", { name: `Review ${name} item 0` }).click();
  const theirs = support.getByRole("dialog", { name: `Review ${name} item 0` });
  await expect(theirs.getByRole("alert")).toContainText("Being reviewed by");
  await expect(theirs.getByRole("button", { name: "Approve", exact: true })).toBeDisabled();
  await expect(theirs.getByRole("button", { name: "Take over" })).toBeVisible();
  await screenshots(support, "reviews-claimed-by-other");
  await theirs.getByRole("button", { name: "Close" }).click();

  // Reject: a reason first, then a confirmation.
  await dialog.getByRole("button", { name: "Reject…" }).click();
  await dialog.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(dialog.getByRole("alert")).toContainText("Say why this item is rejected");
  await dialog.getByLabel("Reason for rejecting").fill("the amount is wrong");
  await dialog.getByRole("button", { name: "Reject", exact: true }).click();
  await dialog.getByRole("button", { name: "Yes, reject this item" }).click();
  await expect(admin.getByRole("status").filter({ hasText: `Rejected: ${name} item 0` })).toBeVisible();
  await expect(inboxItems(admin)).toHaveCount(2);
  // The second member's inbox follows by itself.
  await expect(inboxItems(support)).toHaveCount(2, { timeout: 15_000 });

  await expectAccessible(admin);
  await expectFitsPhone(admin);
  await screenshots(admin, "reviews-inbox");

  // Bulk: select both, approve with one reason; the outcome names each count.
  await admin.getByLabel("Select all on this page").check();
  await admin.getByRole("button", { name: "Approve selected" }).click();
  const bulk = admin.getByRole("dialog", { name: "Approve 2 items" });
  await bulk.getByLabel("Reason (optional)").fill("batch checked");
  await bulk.getByRole("button", { name: "Approve 2 items" }).click();
  await expect(admin.getByRole("region", { name: "Outcome of the bulk decision" })).toContainText(
    "2 decided, 0 skipped, 0 failed",
  );
  await expect(admin.getByText("No items match these filters")).toBeVisible();
});

test("the Live switch pauses the inbox, and a thread shows a new message without a reload", async ({ as }) => {
  const name = `paused ${Date.now()}`;
  const agent = await management.createAgent(REVIEWED(name));
  const key = await management.mintKey("orgA", "reviews live");
  const page = await as("adminA");
  await page.goto(`/reviews?agent_id=${agent.agent_id}`);
  await expect(page.getByText("No items match these filters")).toBeVisible();
  await markDocument(page);
  await page.getByRole("switch").click();
  await expect(page.getByRole("switch")).toHaveAttribute("aria-checked", "false");
  await expect(page.getByRole("switch")).toContainText("Paused");
  await trigger(key, agent.agent_id, 1);
  // Paused: nothing appears however long the item waits (the run is in review well within this).
  await page.waitForTimeout(4_000);
  await expect(page.getByText("No items match these filters")).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "reviews-paused");
  await page.getByRole("switch").click();
  await expect(inboxItems(page)).toHaveCount(1, { timeout: 15_000 });
  await expectSameDocument(page);

  const echo = await management.createAgent(ECHO_AGENT(`live thread ${Date.now()}`));
  const first = await call("POST", `/api/agents/webhook/${echo.agent_id}`, { auth: key, body: { message: "first" } });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  await page.goto(`/sessions/${first.body.session_id}`);
  await expect(page.getByRole("list", { name: "Thread, oldest first" })).toContainText("first");
  await markDocument(page);
  const second = await call("POST", `/api/agents/webhook/${echo.agent_id}`, {
    auth: key,
    body: { message: "second, arriving live", session_id: first.body.session_id },
  });
  expect(second.status).toBe(200);
  await expect(page.getByRole("list", { name: "Thread, oldest first" })).toContainText("second, arriving live", {
    timeout: 15_000,
  });
  await expectSameDocument(page);
  await expectAccessible(page);
  await screenshots(page, "thread-live");
});
