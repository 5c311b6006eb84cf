// The console's lists page by the server's cursor (docs/console.md, "How the lists page"): more rows
// than a page, walked Older, Older, Newer, reloaded and back to the first page, on the runs and the
// sessions lists; a forged or foreign `cursor` in the URL shows the error with its way out.
import type { Locator, Page } from "@playwright/test";
import { call, ECHO_AGENT, expect, expectAccessible, expectFitsPhone, management, screenshots, test } from "./fixtures";

const webhook = (agentId: string) => `/api/agents/webhook/${agentId}`;
/** Eight rows on pages of three: 3, 3 and 2. */
const SEEDED = 8;
const LIMIT = 3;

/** Walks a list of SEEDED rows on pages of LIMIT and checks each page; `ids` reads a page's row ids. */
async function walk(page: Page, ids: () => Promise<string[]>, seeded: string[], shot: string) {
  const pages = page.getByRole("navigation", { name: "Pages" });
  const older = pages.getByRole("button", { name: "Older" });
  const newer = pages.getByRole("button", { name: "Newer" });
  // The rows of the page asked for: the previous page's stay, marked busy, until they arrive.
  const shown = async (n: number) => {
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await expect.poll(async () => (await ids()).length).toBe(n);
    return ids();
  };

  // The first page: no cursor, nothing newer, no "First page".
  const first = await shown(LIMIT);
  await expect(pages).toContainText(`1–${LIMIT}`);
  await expect(newer).toBeDisabled();
  await expect(pages.getByRole("button", { name: "First page" })).toHaveCount(0);

  await older.click();
  await expect(page).toHaveURL(/[?&]cursor=[\w-]+/);
  await expect(pages).toContainText(`4–6`);
  const second = await shown(LIMIT);

  await older.click();
  await expect(pages).toContainText(`7–8`);
  const third = await shown(2);
  await expect(older).toBeDisabled();
  // Every seeded row once, newest first across the pages.
  expect([...first, ...second, ...third]).toEqual(seeded);
  await screenshots(page, `${shot}-last-page`);
  await expectFitsPhone(page);

  await newer.click();
  await expect(pages).toContainText(`4–6`);
  expect(await shown(LIMIT)).toEqual(second);

  // A reload keeps the page, its range and the way back.
  await page.reload();
  expect(await shown(LIMIT)).toEqual(second);
  await expect(pages).toContainText(`4–6`);
  await expect(newer).toBeEnabled();
  await expectAccessible(page);

  await pages.getByRole("button", { name: "First page" }).click();
  await expect(page).not.toHaveURL(/cursor=/);
  await expect(pages).toContainText(`1–${LIMIT}`);
  expect(await shown(LIMIT)).toEqual(first);

  // Each move was a history entry: Back returns to the page before.
  await page.goBack();
  await expect(page).toHaveURL(/[?&]cursor=[\w-]+/);
  await expect(pages).toContainText(`4–6`);
  expect(await shown(LIMIT)).toEqual(second);
}

const rowIds = (rows: Locator, attr: string) => () =>
  rows.evaluateAll((trs, a) => trs.map((tr) => tr.getAttribute(a) ?? ""), attr);

test("the runs list pages by cursor: Older, Older, Newer, reload, First page", async ({ as }) => {
  const key = await management.mintKey();
  const agent = await management.createAgent({
    name: `paged runs ${Date.now()}`,
    kind: "workflow",
    runtime: { type: "echo" },
    workflow: { steps: [{ id: "t", type: "transform", expression: "item" }] },
  });
  const runIds: string[] = [];
  for (let i = 0; i < SEEDED; i++) {
    const res = await call("POST", webhook(agent.agent_id), { auth: key, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    runIds.push(res.body.run_id);
  }

  const page = await as("adminA");
  await page.goto(`/runs?agent_id=${agent.agent_id}&limit=${LIMIT}`);
  const links = page.getByRole("table", { name: "Runs" }).locator("tbody tr td a");
  const ids = () => links.evaluateAll((as) => as.map((a) => (a.getAttribute("href") ?? "").replace("/runs/", "")));
  await walk(page, ids, [...runIds].reverse(), "runs-paged");

  // A page a row: "Newer" remembers five pages back; from further, "First page" still works.
  await page.goto(`/runs?agent_id=${agent.agent_id}&limit=1`);
  const pages = page.getByRole("navigation", { name: "Pages" });
  for (let n = 2; n <= SEEDED; n++) {
    await pages.getByRole("button", { name: "Older" }).click();
    await expect(pages.getByText(String(n), { exact: true })).toBeVisible();
  }
  expect(new URL(page.url()).searchParams.get("back")!.split(".")).toHaveLength(5);
  for (let n = SEEDED - 1; n >= SEEDED - 5; n--) {
    await pages.getByRole("button", { name: "Newer" }).click();
    await expect(pages.getByText(String(n), { exact: true })).toBeVisible();
  }
  await expect(pages.getByRole("button", { name: "Newer" })).toBeDisabled();
  await pages.getByRole("button", { name: "First page" }).click();
  await expect(pages.getByText("1", { exact: true })).toBeVisible();
  await expect(page).not.toHaveURL(/cursor=/);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  expect(await ids()).toEqual([runIds.at(-1)]);
});

test("the sessions list pages by cursor: Older, Older, Newer, reload, First page", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`paged sessions ${Date.now()}`));
  const key = await management.mintKey();
  const sessionIds: string[] = [];
  for (let i = 0; i < SEEDED; i++) {
    const res = await call("POST", webhook(agent.agent_id), { auth: key, body: { message: `conversation ${i}` } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    sessionIds.push(res.body.session_id);
  }

  const page = await as("adminA");
  await page.goto(`/sessions?agent_id=${agent.agent_id}&limit=${LIMIT}`);
  const rows = page.getByRole("table", { name: "Sessions" }).locator("tbody tr");
  await walk(page, rowIds(rows, "data-session-id"), [...sessionIds].reverse(), "sessions-paged");

  // Changing a filter goes back to the first page.
  await page.getByLabel("Environment").selectOption("production");
  await expect(page).not.toHaveURL(/cursor=|back=|page=/);
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText(`1–${LIMIT}`);
});

test("a forged or foreign cursor in the URL shows the error with a way back to the first page", async ({ as }) => {
  const page = await as("supportA");
  // Not base64url of a cursor at all; then a well-formed cursor of another list (a run item's position).
  const foreign = Buffer.from(JSON.stringify([5, "ri_x"])).toString("base64url");
  for (const [path, title, table, noun] of [
    ["/runs", "Runs could not be loaded", "Runs", "runs"],
    ["/sessions", "Sessions could not be loaded", "Sessions", "sessions"],
  ] as const) {
    for (const cursor of ["forged!cursor", foreign]) {
      await page.goto(`${path}?cursor=${encodeURIComponent(cursor)}&page=4`);
      const alert = page.getByRole("alert").filter({ hasText: title });
      await expect(alert).toContainText(title);
      await expect(alert).toContainText("cursor");
      await expect(alert).toContainText(/request id: \S+/);
      await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
      if (path === "/runs" && cursor === foreign) {
        await expectAccessible(page);
        await screenshots(page, "runs-forged-cursor");
      }
      await alert.getByRole("button", { name: "First page" }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(alert).toHaveCount(0);
      // The first page: the list, or its empty state when this test runs alone.
      await expect(page.getByRole("table", { name: table }).or(page.getByText(`No ${noun} yet`))).toBeVisible();
    }
  }
});
