// The Runs pages: the list with its URL filters, a run watched live (no reload), its controls
// enabled exactly where the run's state allows them, the review queue, and the end of polling.
import type { Page } from "@playwright/test";
import { call, expect, expectAccessible, management, screenshots, test, ui } from "./fixtures";

/** A path of the organization API: Acme's (org A) unless another is named. */
const orgApi = (path: string, org: "orgA" | "orgB" = "orgA") =>
  `/api/v1/organizations/${ui()[org].organization_id}${path}`;

const rowsInput = { rows: { type: "array", required: true } };
const wf = (name: string, workflow: Record<string, unknown>) => ({
  name,
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: { inputs: rowsInput, items: { from: "rows" }, ...workflow },
});
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ n: i }));

/** A run started from the console (the page's session; state changes need the page's origin). */
async function startRun(page: Page, agentId: string, inputs: Record<string, unknown>): Promise<string> {
  const res = await page.request.post(`/api/v1/organizations/${ui().orgA.organization_id}/agents/${agentId}/runs`, {
    data: { inputs },
    headers: { origin: ui().baseUrl },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).run_id;
}

/** A run started through the public webhook trigger with an Access Key (trigger type `event`). */
async function triggerRun(key: string, agentId: string, inputs: Record<string, unknown>): Promise<string> {
  const res = await call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body: inputs });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.run_id;
}

const controls = (page: Page) => page.getByRole("group", { name: "Run controls" });

/** Exactly which control buttons are enabled (the others disabled, with a reason in their title). */
async function expectControls(page: Page, status: string, enabled: string[]) {
  for (const name of ["Pause", "Resume", "Retry", "Cancel"]) {
    const button = controls(page).getByRole("button", { name, exact: true });
    if (enabled.includes(name.toLowerCase())) {
      await expect(button, `${name} while ${status}`).toBeEnabled();
    } else {
      await expect(button, `${name} while ${status}`).toBeDisabled();
      await expect(button).toHaveAttribute("title", `${name} is not available while the run is ${status}.`);
    }
  }
}

/** Marks the loaded document; a reload would lose the mark. */
async function markDocument(page: Page) {
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
}
async function expectSameDocument(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
}

/** A control through the console API, as another person on another page would. */
async function controlRun(page: Page, runId: string, action: string) {
  const res = await page.request.post(orgApi(`/runs/${runId}/${action}`), { headers: { origin: ui().baseUrl } });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/** Waits until no fetch of the run page is under way; then nothing more should start by itself. */
async function settled(page: Page) {
  await expect(page.locator('[data-syncing="true"]')).toHaveCount(0);
}

async function requestsDuring(page: Page, match: (url: URL) => boolean, ms: number) {
  const seen: string[] = [];
  const listener = (req: { url(): string }) => {
    const url = new URL(req.url());
    if (match(url)) seen.push(url.pathname + url.search);
  };
  page.on("request", listener);
  // Asserting that nothing happens takes a while of nothing happening.
  await page.waitForTimeout(ms);
  page.off("request", listener);
  return seen;
}

test("a run's status and counts change on the page without a reload", async ({ as }) => {
  const agent = await management.createAgent(wf("paced twenty", { steps: [{ id: "pace", type: "wait", ms: 300 }] }));
  const page = await as("supportA");
  const runId = await startRun(page, agent.agent_id, { rows: rows(20) });
  // Held until the page watches it: nothing moves before the page has loaded.
  await controlRun(page, runId, "pause");
  await page.goto(`/runs/${runId}`);
  await markDocument(page);

  const status = page.getByTestId("run-status");
  const completed = page.getByTestId("count-completed");
  await expect(page.getByRole("heading", { name: /Run of paced twenty/ })).toBeVisible();
  await expect(status).toHaveText("paused");
  const before = Number(await completed.textContent());
  expect(before).toBeLessThan(20);

  await controls(page).getByRole("button", { name: "Resume", exact: true }).click();
  await expect(status).toHaveText("running");
  await expect(page.getByText("Live: this page updates every second.")).toBeVisible();
  await expect.poll(async () => Number(await completed.textContent()), { timeout: 30_000 }).toBeGreaterThan(before);
  await expect(status).toHaveText("completed", { timeout: 30_000 });
  await expect(completed).toHaveText("20");
  await expect(page.getByTestId("count-total")).toHaveText("20");
  await expect(page.getByTestId("summary-successful")).toHaveText("20");
  await expect(page.getByRole("progressbar", { name: "Run progress" })).toHaveAttribute("aria-valuenow", "100");
  await expect(page.getByText("Finished: this page no longer updates.")).toBeVisible();
  await expectControls(page, "completed", []);
  // The audit trail shows the moves, the engine's included.
  const trail = page.getByRole("table", { name: "Audit trail" });
  await expect(trail.getByRole("row").filter({ hasText: "resume" })).toContainText("paused → running");
  await expect(trail.getByRole("row").filter({ hasText: "finish" })).toContainText("running → completed");
  await expectSameDocument(page);
});

test("once a run is final the page stops polling it", async ({ as }) => {
  const agent = await management.createAgent(wf("paced ten", { steps: [{ id: "pace", type: "wait", ms: 300 }] }));
  const page = await as("supportA");
  const runId = await startRun(page, agent.agent_id, { rows: rows(10) });
  await controlRun(page, runId, "pause");
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-status")).toHaveText("paused");
  const polls: string[] = [];
  page.on("request", (req) => {
    if (new URL(req.url()).pathname === orgApi(`/runs/${runId}`)) polls.push(req.url());
  });
  await controls(page).getByRole("button", { name: "Resume", exact: true }).click();
  await expect(page.getByTestId("run-status")).toHaveText("completed", { timeout: 30_000 });
  // It polled while the run was live (3 s of work, a poll a second)...
  expect(polls.length).toBeGreaterThan(1);
  await settled(page);
  // ...and now nothing about this run is fetched again: not the run, its items or its approvals.
  const later = await requestsDuring(page, (u) => u.pathname.startsWith(orgApi(`/runs/${runId}`)), 4_000);
  expect(later).toEqual([]);
});

test("support pauses, resumes and cancels a run from the page, with the controls the run's state allows", async ({
  as,
}) => {
  const agent = await management.createAgent(wf("long run", { steps: [{ id: "pace", type: "wait", ms: 200 }] }));
  const page = await as("supportA");
  const runId = await startRun(page, agent.agent_id, { rows: rows(200) });
  await page.goto(`/runs/${runId}`);
  await markDocument(page);
  const status = page.getByTestId("run-status");

  await expect(status).toHaveText("running");
  await expectControls(page, "running", ["pause", "cancel"]);

  await controls(page).getByRole("button", { name: "Pause", exact: true }).click();
  await expect(status).toHaveText("paused");
  await expect(page.getByRole("status").filter({ hasText: "Run paused" })).toBeVisible();
  await expectControls(page, "paused", ["resume", "cancel"]);
  await expect(page.getByText("Waiting for a person: this page checks for changes every 5 seconds.")).toBeVisible();

  await controls(page).getByRole("button", { name: "Resume", exact: true }).click();
  await expect(status).toHaveText("running");
  await expectControls(page, "running", ["pause", "cancel"]);

  // Someone else pauses the run while this page still shows it running: the page's Pause is refused
  // with the server's 409 message, and the page catches up.
  const current = await (await page.request.get(orgApi(`/runs/${runId}`))).json();
  expect(current.status).toBe("running");
  const runUrl = (u: URL) => u.pathname === orgApi(`/runs/${runId}`);
  await page.route(runUrl, (route) =>
    route.request().method() === "GET" ? route.fulfill({ json: current }) : route.continue(),
  );
  const key = await management.mintKey();
  const paused = await call("POST", `/api/agents/${agent.agent_id}/runs/${runId}/pause`, { auth: key });
  expect(paused.status).toBe(200);
  await controls(page).getByRole("button", { name: "Pause", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Cannot pause a run that is paused." })).toBeVisible();
  await page.unroute(runUrl);
  await expect(status).toHaveText("paused");
  await expectControls(page, "paused", ["resume", "cancel"]);

  await controls(page).getByRole("button", { name: "Cancel", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Cancel this run?" });
  await expect(confirm).toContainText("cannot be resumed or retried");
  await confirm.getByRole("button", { name: "Cancel run" }).click();
  await expect(confirm).toBeHidden();
  await expect(status).toHaveText("cancelled");
  await expectControls(page, "cancelled", []);

  const trail = page.getByRole("table", { name: "Audit trail" });
  await expect(trail.getByRole("row").filter({ hasText: "cancel" })).toContainText("paused → cancelled");
  await expect(trail.getByRole("row").filter({ hasText: "dashboard:support-a@ui.test" })).toHaveCount(3);
  const done = await (await page.request.get(orgApi(`/runs/${runId}`))).json();
  expect(done.events.map((e: { action: string }) => e.action)).toEqual([
    "trigger",
    "start",
    "pause",
    "resume",
    "pause",
    "cancel",
  ]);
  expect(done.item_counts.completed).toBeLessThan(200);
  await expectSameDocument(page);
});

test("a failed run shows its error; only Retry is enabled, and retrying runs it again", async ({ as }) => {
  const agent = await management.createAgent(
    wf("fatal rows", { steps: [{ id: "boom", type: "fail", when: "item.n = 1", fatal: true, message: "bad row" }] }),
  );
  const page = await as("supportA");
  const runId = await startRun(page, agent.agent_id, { rows: rows(3) });
  await page.goto(`/runs/${runId}`);
  const status = page.getByTestId("run-status");
  await expect(status).toHaveText("failed");
  await expect(page.getByRole("alert").filter({ hasText: "The run failed" })).toContainText("bad row");
  await expectControls(page, "failed", ["retry"]);

  await controls(page).getByRole("button", { name: "Retry", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Run retried" })).toBeVisible();
  // The same row fails again: the trail shows the retry and a second failure, and the page settles on failed.
  const trail = page.getByRole("table", { name: "Audit trail" });
  await expect(trail.getByRole("row").filter({ hasText: "retry" })).toContainText("failed → pending");
  await expect(trail.getByRole("row").filter({ hasText: "running → failed" })).toHaveCount(2);
  await expect(status).toHaveText("failed");
  await expectControls(page, "failed", ["retry"]);
});

test("an item's step timeline shows each step's outcome, duration and error, and the attempt a retry made", async ({
  as,
}) => {
  const agent = await management.createAgent(
    wf("timeline rows", {
      steps: [
        { id: "prep", type: "transform", expression: "item" },
        { id: "pause", type: "wait", ms: 40 },
        { id: "boom", type: "fail", when: "item.n = 1", fatal: true, message: "bad row" },
      ],
    }),
  );
  const page = await as("supportA");
  const runId = await startRun(page, agent.agent_id, { rows: rows(2) });
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-status")).toHaveText("failed");
  await controls(page).getByRole("button", { name: "Retry", exact: true }).click();
  const trail = page.getByRole("table", { name: "Audit trail" });
  await expect(trail.getByRole("row").filter({ hasText: "running → failed" })).toHaveCount(2);

  const items = page.getByRole("table", { name: "Items" });
  const toggle = items.getByRole("button", { name: "4 steps · retried of item 1" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const steps = page.getByRole("list", { name: "Steps of item 1" }).getByRole("listitem");
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(0)).toContainText("prep");
  await expect(steps.nth(0)).toContainText("completed");
  await expect(steps.nth(1)).toContainText(/pause\s*wait/);
  await expect(steps.nth(1)).toContainText(/\d+ ms/);
  await expect(steps.nth(2)).toContainText("failed");
  await expect(steps.nth(2)).toContainText("bad row");
  await expect(steps.nth(2)).not.toContainText("attempt");
  await expect(steps.nth(3)).toContainText("attempt 2");
  await expect(steps.nth(3)).toContainText("bad row");

  await items.getByRole("button", { name: "3 steps of item 0" }).click();
  const first = page.getByRole("list", { name: "Steps of item 0" }).getByRole("listitem");
  await expect(first.nth(2)).toContainText("boom");
  await expect(first.nth(2)).toContainText("condition false");
  await expectAccessible(page);
  // On a phone the open timelines fit the page: nothing scrolls it sideways.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(steps.nth(3)).toContainText("attempt 2");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshots(page, "run-step-timeline");
  await toggle.click();
  await expect(page.getByRole("list", { name: "Steps of item 1" })).toHaveCount(0);
});

test("reviewers reject, edit & approve, and approve; the last approval resumes the run", async ({ as }) => {
  const agent = await management.createAgent(
    wf("reviewed orders", {
      steps: [
        { id: "check", type: "review", when: "item.flag = true", message: "flagged for a person" },
        { id: "pace", type: "wait", ms: 1000 },
        { id: "done", type: "transform", expression: "$merge([item, {'ok': true}])" },
      ],
      output: { filename: "reviewed.jsonl", format: "jsonl" },
    }),
  );
  const page = await as("supportA");
  const runId = await startRun(page, agent.agent_id, {
    rows: [{ n: 0 }, { n: 1, flag: true }, { n: 2, flag: true }, { n: 3, flag: true }],
  });
  await page.goto(`/runs/${runId}`);
  await markDocument(page);
  const status = page.getByTestId("run-status");
  await expect(status).toHaveText("needs review", { timeout: 30_000 });
  await expect(page.getByTestId("count-needs-review")).toHaveText("3");
  await expect(page.getByTestId("count-completed")).toHaveText("1");
  await expectControls(page, "needs review", ["resume", "cancel"]);

  const review = (n: number) => page.getByRole("listitem", { name: `Review item ${n}` });
  for (const n of [1, 2, 3]) {
    await expect(review(n)).toContainText("flagged for a person");
    await expect(review(n)).toContainText(`"n": ${n}`);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectAccessible(page);
  await screenshots(page, "run-needs-review");

  // Reject item 3: it ends failed; the run still waits for the other two.
  await review(3).getByRole("button", { name: "Reject item 3" }).click();
  const reject = page.getByRole("dialog", { name: "Reject item 3?" });
  await reject.getByRole("button", { name: "Reject item" }).click();
  await expect(reject.getByRole("alert")).toHaveText("Say why this item is rejected.");
  await reject.getByLabel("Reason for rejecting").fill("duplicate order");
  await reject.getByRole("button", { name: "Reject item" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rejected: item 3" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Review decisions" })).toContainText("Reason: duplicate order");
  await expect(review(3)).toHaveCount(0);
  await expect(page.getByTestId("count-failed")).toHaveText("1");
  await expect(status).toHaveText("needs review");

  // Edit & approve item 2: the JSON is checked in the browser first.
  await review(2).getByRole("button", { name: "Edit & approve item 2" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit & approve item 2" });
  const editor = dialog.getByLabel("Item data (JSON)");
  expect(JSON.parse(await editor.inputValue())).toEqual({ n: 2, flag: true });
  await editor.fill('{ "n": 2, nope');
  await dialog.getByRole("button", { name: "Approve with changes" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Not valid JSON");
  await expect(editor).toHaveAttribute("aria-invalid", "true");
  await editor.fill(JSON.stringify({ n: 2, flag: true, note: "edited in review" }));
  await dialog.getByRole("button", { name: "Approve with changes" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Approved with changes: item 2" })).toBeVisible();
  await expect(review(2)).toHaveCount(0);
  await expect(status).toHaveText("needs review");

  // Approve item 1, the last one: the run resumes by itself and finishes, with no reload.
  await review(1).getByRole("button", { name: "Approve item 1", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "the run resumes" })).toBeVisible();
  await expect(status).toHaveText("running");
  await expect(page.getByText("Nothing waits for review")).toBeVisible();
  await expect(status).toHaveText("completed", { timeout: 30_000 });
  await expect(page.getByTestId("count-completed")).toHaveText("3");
  await expect(page.getByTestId("count-failed")).toHaveText("1");
  await expect(page.getByTestId("count-needs-review")).toHaveText("0");
  const trail = page.getByRole("table", { name: "Audit trail" });
  await expect(trail.getByRole("row").filter({ hasText: "resume" })).toContainText("needs review → running");

  // The items table shows each outcome.
  const items = page.getByRole("table", { name: "Items" });
  const itemRow = (n: number) =>
    items.getByRole("row").filter({ has: page.getByRole("cell", { name: String(n), exact: true }) });
  await expect(itemRow(3)).toContainText("Rejected in review");
  await expect(itemRow(2)).toContainText("edited in review");
  await expect(itemRow(1)).toContainText('"ok":true');
  await page.getByLabel("Item status").selectOption("failed");
  await expect(items.getByRole("row")).toHaveCount(2);
  await expect(items).toContainText("Rejected in review");

  // The output file downloads through its signed link.
  const link = page.getByRole("link", { name: "Download reviewed.jsonl" });
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  const file = await fetch(href!);
  expect(file.status).toBe(200);
  expect(await file.text()).toContain("edited in review");
  await expect(page.getByText(/Download links are signed for 15 minutes/)).toBeVisible();

  await page.getByLabel("Item status").selectOption("");
  await expect(items.getByRole("row")).toHaveCount(5);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectAccessible(page);
  await screenshots(page, "run-completed");
  await expectSameDocument(page);
});

test("the runs list filters by status and agent in the URL, pages, and follows live runs", async ({ as }) => {
  const key = await management.mintKey();
  const quick = await management.createAgent(
    wf("quick list", { steps: [{ id: "t", type: "transform", expression: "item" }] }),
  );
  const reviewed = await management.createAgent(
    wf("list review", { steps: [{ id: "check", type: "review", when: "item.n = 1", message: "check" }] }),
  );
  const paced = await management.createAgent(wf("list paced", { steps: [{ id: "pace", type: "wait", ms: 200 }] }));
  const quickRuns: string[] = [];
  for (let i = 0; i < 22; i++) quickRuns.push(await triggerRun(key, quick.agent_id, { rows: rows(2) }));
  const reviewRun = await triggerRun(key, reviewed.agent_id, { rows: rows(3) });

  const page = await as("supportA");
  await expect
    .poll(async () => (await (await page.request.get(orgApi(`/runs/${reviewRun}`))).json()).status, {
      timeout: 30_000,
    })
    .toBe("needs_review");
  await page.goto(`/runs?status=needs_review&agent_id=${reviewed.agent_id}`);
  const table = page.getByRole("table", { name: "Runs" });
  await expect(page.getByLabel("Status")).toHaveValue("needs_review");
  await expect(page.getByLabel("Agent")).toHaveValue(reviewed.agent_id);
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("link", { name: `list review, run ${reviewRun}` })).toBeVisible();
  await expect(table).toContainText("1 review");

  // Changing a filter rewrites the URL; the list follows.
  await page.getByLabel("Agent").selectOption(quick.agent_id);
  await expect(page).toHaveURL(new RegExp(`/runs\\?status=needs_review&agent_id=${quick.agent_id}$`));
  await expect(page.getByText("No runs match these filters")).toBeVisible();
  await page.getByLabel("Status").selectOption("");
  await expect(page).toHaveURL(new RegExp(`/runs\\?agent_id=${quick.agent_id}$`));
  await expect(table.getByRole("row")).toHaveCount(21);
  await expect(table.getByRole("row").filter({ hasText: "event" }).first()).toBeVisible();
  const pages = page.getByRole("navigation", { name: "Pages" });
  await expect(pages).toContainText("1–20");
  await pages.getByRole("button", { name: "Older" }).click();
  await expect(page).toHaveURL(/[?&]cursor=[\w-]+/);
  await expect(pages).toContainText("21–22");
  await expect(table.getByRole("row")).toHaveCount(3);
  // The oldest run is last.
  await expect(table.getByRole("row").last().getByRole("link")).toHaveAccessibleName(`quick list, run ${quickRuns[0]}`);
  await pages.getByRole("button", { name: "Newer" }).click();
  await expect(page).not.toHaveURL(/cursor=/);
  await expect(pages).toContainText("1–20");

  // The overview's links land on a filtered list.
  await page.goto("/runs?status=needs_review");
  await expect(page.getByLabel("Status")).toHaveValue("needs_review");
  await expect(table.getByRole("link", { name: `list review, run ${reviewRun}` })).toBeVisible();
  // The first cell is the row's checkbox (bulk actions), the second its status.
  for (const badge of await table.locator("tbody tr td:nth-child(2)").allTextContents())
    expect(badge).toBe("needs review");

  // A run in progress is followed live, and the list stops polling when nothing listed is live.
  const pacedRun = await triggerRun(key, paced.agent_id, { rows: rows(100) });
  await page.goto(`/runs?agent_id=${paced.agent_id}`);
  await markDocument(page);
  const row = table.getByRole("row").filter({ has: page.getByRole("link", { name: `list paced, run ${pacedRun}` }) });
  await expect(row).toContainText("running");
  await expect
    .poll(async () => Number(await row.getByRole("progressbar").getAttribute("aria-valuenow")))
    .toBeGreaterThan(0);
  // Someone cancels it elsewhere: the list, polling while a listed run is live, shows it.
  await controlRun(page, pacedRun, "cancel");
  await expect(row).toContainText("cancelled");
  await expectSameDocument(page);
  const later = await requestsDuring(page, (u) => u.pathname === orgApi("/runs"), 3_000);
  expect(later).toEqual([]);

  await page.goto("/runs");
  await expect(table).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "runs-list");
  await table.getByRole("link", { name: `list review, run ${reviewRun}` }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${reviewRun}$`));
  await expect(page.getByRole("listitem", { name: "Review item 1" })).toBeVisible();
});

test("another organization's run is not found, and its controls are refused", async ({ as }) => {
  const agent = await management.createAgent(
    wf("isolated", { steps: [{ id: "t", type: "transform", expression: "item" }] }),
  );
  const pageA = await as("adminA");
  const runId = await startRun(pageA, agent.agent_id, { rows: rows(1) });
  const pageB = await as("adminB");
  await pageB.goto(`/runs/${runId}`);
  await expect(pageB.getByRole("heading", { name: "Run not found" })).toBeVisible();
  const res = await pageB.request.post(orgApi(`/runs/${runId}/cancel`, "orgB"), { headers: { origin: ui().baseUrl } });
  expect(res.status()).toBe(404);
  expect((await res.json()).error.code).toBe("run_not_found");
});
