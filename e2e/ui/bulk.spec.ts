// Bulk actions on the Runs page (checked rows, the dry run dialog, the progress to done, the bulk
// action's page, the list of bulk actions), revoking checked Access Keys (admins only), and "Run
// again" with edited inputs, linked both ways.
import type { Page } from "@playwright/test";
import { call, ECHO_AGENT, expect, expectAccessible, management, screenshots, test, ui } from "./fixtures";

/** A path of the organization API: Acme's (org A) unless another is named. */
const orgApi = (path: string, org: "orgA" | "orgB" = "orgA") =>
  `/api/v1/organizations/${ui()[org].organization_id}${path}`;

const rowsInput = { rows: { type: "array", required: true } };
const wf = (name: string, steps: unknown[]) => ({
  name,
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: { inputs: rowsInput, items: { from: "rows" }, steps },
});

/** A write through the organization API with the page's session cookie and origin: its answer. */
async function consoleWrite(page: Page, path: string, data: unknown) {
  const res = await page.request.post(orgApi(path), { data, headers: { origin: ui().baseUrl } });
  expect(res.ok(), await res.text()).toBe(true);
  return res.json();
}

const startRun = async (page: Page, agentId: string, inputs: Record<string, unknown>): Promise<string> =>
  (await consoleWrite(page, `/agents/${agentId}/runs`, { inputs })).run_id;

async function statusOf(page: Page, runId: string): Promise<string> {
  const res = await page.request.get(orgApi(`/runs/${runId}`));
  return (await res.json()).status;
}

test("support selects three runs, reads the dry run, confirms, and watches the bulk cancel to done", async ({ as }) => {
  const name = `bulk hold ${Date.now()}`;
  const agent = await management.createAgent(wf(name, [{ id: "h", type: "wait", ms: 120_000 }]));
  const page = await as("supportA");
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await startRun(page, agent.agent_id, { rows: [{ n: i }] }));
  for (const id of runs) await expect.poll(() => statusOf(page, id), { timeout: 30_000 }).toBe("running");

  await page.goto(`/runs?agent_id=${agent.agent_id}`);
  for (const id of runs) await page.getByRole("checkbox", { name: `Select run ${id} of ${name}` }).check();
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await expect(bar.getByTestId("bulk-selected")).toHaveText("3 selected");
  await expect(bar.getByRole("button", { name: "Select all matching this filter" })).toBeVisible();
  await bar.getByRole("button", { name: "Cancel", exact: true }).click();

  const dialog = page.getByRole("dialog", { name: "Cancel runs" });
  await expect(dialog.getByTestId("bulk-matched")).toHaveText("3");
  await expect(dialog.getByTestId("bulk-allowed")).toHaveText("3");
  const sample = dialog.getByRole("list", { name: "Sample of the runs" });
  for (const id of runs)
    await expect(sample.getByRole("link", { name: new RegExp(id) })).toHaveAttribute("href", `/runs/${id}`);
  await expectAccessible(page);
  await screenshots(page, "runs-bulk-dry-run");

  await dialog.getByRole("button", { name: "Cancel 3 runs" }).click();
  await expect(dialog).toBeHidden();
  const progress = page.getByTestId("bulk-progress");
  await expect(progress).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
  await expect(progress.getByTestId("bulk-counts")).toContainText("3 cancelled · 0 skipped · 0 failed · 3 of 3");
  for (const id of runs) expect(await statusOf(page, id)).toBe("cancelled");
  await expectAccessible(page);
  await screenshots(page, "runs-bulk-done");

  await progress.getByRole("link", { name: "Open the bulk action" }).click();
  await expect(page.getByTestId("bulk-status")).toHaveText("completed");
  await expect(page.getByTestId("bulk-counts")).toContainText("3 cancelled");
  const bulkId = new URL(page.url()).pathname.split("/").pop()!;
  await expectAccessible(page);
  await screenshots(page, "runs-bulk-action-page");

  // The list of bulk actions, reached from the runs page: this one first, with its outcome and who started it.
  await page.goto("/runs");
  await page.getByRole("link", { name: "Bulk actions" }).click();
  await expect(page).toHaveURL(/\/runs\/bulk$/);
  const table = page.getByRole("table", { name: "Bulk actions" });
  const row = table.getByRole("row").filter({ has: page.getByRole("link", { name: new RegExp(bulkId) }) });
  await expect(row.getByTestId("bulk-row-counts")).toHaveText("3 moved · 0 skipped · 0 failed");
  await expect(row).toContainText("Cancel runs");
  await expect(row).toContainText("3 checked runs");
  await expect(row).toContainText("support-a@ui.test");
  await expectAccessible(page);
  await screenshots(page, "runs-bulk-list");
  await row.getByRole("link", { name: new RegExp(bulkId) }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/bulk/${bulkId}$`));
});

test("an admin checks two keys, reads the dry run, revokes them in the background; support sees no checkboxes", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT(`bulk keys ${Date.now()}`));
  const stamp = Date.now();
  const names = [`bulk-key-${stamp}-a`, `bulk-key-${stamp}-b`, `bulk-key-${stamp}-c`];
  const raws: string[] = [];
  for (const name of names) raws.push(await management.mintKey("orgA", name));

  const support = await as("supportA");
  await support.goto("/keys");
  await expect(support.getByRole("table", { name: "Access Keys" })).toContainText(names[0]!);
  await expect(support.getByRole("checkbox")).toHaveCount(0);
  await expect(support.getByRole("region", { name: "Bulk actions" })).toHaveCount(0);

  const page = await as("adminA");
  await page.goto("/keys");
  await page.getByRole("checkbox", { name: `Select key ${names[0]}` }).check();
  await page.getByRole("checkbox", { name: `Select key ${names[1]}` }).check();
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await expect(bar.getByTestId("bulk-selected")).toHaveText("2 selected");
  await bar.getByRole("button", { name: "Revoke 2 keys" }).click();

  const dialog = page.getByRole("dialog", { name: "Revoke keys" });
  await expect(dialog.getByTestId("bulk-matched")).toHaveText("2");
  await expect(dialog.getByTestId("bulk-allowed")).toHaveText("2");
  const sample = dialog.getByRole("list", { name: "Sample of the keys" });
  await expect(sample.getByRole("link")).toHaveCount(2);
  await expect(sample.getByRole("link", { name: new RegExp(names[0]!) })).toHaveAttribute("href", /^\/keys\/key_/);
  await expectAccessible(page);
  await screenshots(page, "keys-bulk-dry-run");

  await dialog.getByRole("button", { name: "Revoke 2 keys" }).click();
  await expect(dialog).toBeHidden();
  const progress = page.getByTestId("bulk-progress");
  await expect(progress).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
  await expect(progress.getByTestId("bulk-counts")).toContainText("2 revoked · 0 skipped · 0 failed · 2 of 2");
  const rowOf = (name: string) => page.getByRole("row").filter({ hasText: name });
  await expect(rowOf(names[0]!)).toContainText("revoked");
  await expect(rowOf(names[1]!)).toContainText("revoked");
  await expect(rowOf(names[2]!)).not.toContainText("revoked");
  await expectAccessible(page);
  await screenshots(page, "keys-bulk-done");
  // The checkbox column costs no sideways scroll: the table keeps inside the screen, desktop and phone.
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 812 });
    const overflow = await page
      .getByRole("table", { name: "Access Keys" })
      .evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth);
    expect(overflow, `the keys table scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  }

  for (const [i, raw] of raws.entries()) {
    const res = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: raw, body: { message: "hi" } });
    expect(res.status, names[i]).toBe(i < 2 ? 401 : 200);
  }
});

test("Run again: a finished run's inputs edited in the JSON editor, refused like a trigger, then started and linked both ways", async ({
  as,
}) => {
  const agent = await management.createAgent(
    wf(`rerun ${Date.now()}`, [{ id: "t", type: "transform", expression: "item" }]),
  );
  const page = await as("supportA");
  const original = await startRun(page, agent.agent_id, { rows: [{ n: 1 }] });
  await expect.poll(() => statusOf(page, original), { timeout: 30_000 }).toBe("completed");

  await page.goto(`/runs/${original}`);
  await page.getByRole("button", { name: "Run again" }).click();
  const dialog = page.getByRole("dialog", { name: "Run again" });
  const editor = dialog.getByLabel("Inputs (JSON)");
  await expect(editor).toHaveValue(/"n": 1/);
  await editor.fill('{"rows": "not a list"}');
  await dialog.getByRole("button", { name: "Start the run" }).click();
  await expect(dialog.getByText(/line 1/)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "run-again-refused");

  await editor.fill('{"rows": [{"n": 2}]}');
  await dialog.getByRole("button", { name: "Start the run" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${original}$`));
  const links = page.getByTestId("rerun-links");
  await expect(links).toContainText(`Rerun of ${original}`);
  const rerun = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByTestId("run-status")).toHaveText("completed", { timeout: 30_000 });

  await links.getByRole("link", { name: original }).click();
  await expect(page.getByTestId("rerun-links")).toContainText(`Reruns: ${rerun}`);
  await expectAccessible(page);
  await screenshots(page, "run-again-linked");
});
