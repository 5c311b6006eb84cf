// The API reference at /docs/api: readable signed out (its own frame, a way to sign in) and signed
// in (the console's frame), rendering every operation of /api/openapi.json; accessible (axe), no
// sideways scroll on a phone, screenshots at phone (390x844) and laptop (1366x768) sizes.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { call, expect, expectAccessible, test, ui } from "./fixtures";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots");
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };

async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test("signed out: the reference renders every operation of the document, accessible, on a laptop and a phone", async ({
  browser,
}) => {
  const doc = (await call("GET", "/api/openapi.json")).body;
  const operationIds = Object.values<Record<string, { operationId: string }>>(doc.paths).flatMap((item) =>
    Object.values(item).map((op) => op.operationId),
  );
  expect(operationIds.length).toBeGreaterThan(30);

  const context = await browser.newContext({ baseURL: ui().baseUrl, viewport: LAPTOP });
  const page = await context.newPage();
  const res = await page.goto("/docs/api");
  expect(res?.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe("/docs/api"); // not sent to /login
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API reference");
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login?next=%2Fdocs%2Fapi");
  await expect(page.getByRole("link", { name: "OpenAPI document (JSON)" })).toHaveAttribute(
    "href",
    "/api/openapi.json",
  );
  await expect(page.getByRole("main")).toHaveCount(1);

  // Every operation of the document has its section, with its method, path and summary.
  const articles = await page.locator("article[id]").evaluateAll((els) => els.map((e) => e.id));
  expect(operationIds.filter((id) => !articles.includes(id))).toEqual([]);
  const trigger = page.locator("article#triggerAgent");
  await expect(trigger.getByRole("heading", { name: "Trigger an agent" })).toBeVisible();
  await expect(trigger.getByText("/api/agents/webhook/{agent_id}", { exact: true })).toBeVisible();
  await expect(trigger.getByRole("table", { name: "triggerAgent parameters" })).toContainText("Idempotency-Key");
  await expect(trigger.getByText("upstream_timeout", { exact: true })).toBeVisible();
  // The error table of the overview: every code of the document's ErrorCode enum.
  const codes = await page.locator("#overview td:nth-child(2) code").allTextContents();
  expect(codes.sort()).toEqual([...(doc.components.schemas.ErrorCode.enum as string[])].sort());
  // Every error answer's doc_url points at its code's row.
  const refused = await call("GET", "/api/agents/agt_nobody/runs");
  expect(refused.body.error.doc_url).toBe("/docs/api#error-unauthorized");
  const rows = await page.locator("#overview tr[id^='error-']").evaluateAll((els) => els.map((e) => e.id));
  expect(rows.sort()).toEqual(codes.map((c) => `error-${c}`).sort());
  await expect(page.locator("#schema-RunRecord")).toContainText("output_files");

  // Every rule over the whole page, but for colour contrast: a matter of the styles every operation
  // shares, checked on the frame and three operations (over the page's 24,000 elements it took 58 s
  // of axe's 72 s).
  await expectAccessible(page, [], "all-but-contrast");
  await expectAccessible(page, ["article:not(#triggerAgent):not(#getRun):not(#listOrganizationRuns)"], "contrast");
  await shoot(page, "api-docs-signed-out-1366x768");
  await page.locator("#getRun").scrollIntoViewIfNeeded();
  await page.evaluate(() => document.getElementById("getRun")!.scrollIntoView());
  await shoot(page, "api-docs-operation-1366x768");

  await page.setViewportSize(PHONE);
  await page.evaluate(() => window.scrollTo(0, 0));
  expect(await sidewaysScroll(page), "/docs/api scrolls sideways on a phone").toBeLessThanOrEqual(0);
  // On a phone the contents fold away behind a toggle.
  const contents = page.getByText("Contents", { exact: true });
  await expect(contents).toBeVisible();
  await contents.click();
  await expect(
    page.getByRole("navigation", { name: "API reference contents" }).getByRole("link", { name: "Fetch a run" }).first(),
  ).toBeVisible();
  await shoot(page, "api-docs-signed-out-390x844");
  await page.evaluate(() => document.getElementById("getRun")!.scrollIntoView());
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
  await shoot(page, "api-docs-operation-390x844");
  // An answer's body: its schema and example fold out.
  const getRun = page.locator("article#getRun");
  await getRun.getByText("Body and example").first().click();
  await expect(getRun.locator("pre").first()).toContainText('"output_files"');
  await getRun.locator("pre").first().scrollIntoViewIfNeeded();
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
  await shoot(page, "api-docs-example-390x844");
  await page.evaluate(() => document.getElementById("triggerAgent")!.scrollIntoView());
  await page.getByRole("heading", { name: "Request body" }).first().scrollIntoViewIfNeeded();
  await shoot(page, "api-docs-request-390x844");
  // The operations were checked at laptop size; at phone size what changes is the frame and contents.
  await expectAccessible(page, ["article"]);
  await context.close();
});

test("signed in: the reference sits in the console's frame, reached from its navigation", async ({ as }) => {
  const page = await as("supportA");
  await page.setViewportSize(LAPTOP);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API reference");
  await expect(page.getByRole("link", { name: "API reference", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveCount(0);
  await expect(page.getByRole("main")).toHaveCount(1);
  // The operations are the signed-out page's, checked there: here the console's frame around them.
  await expectAccessible(page, ["article"]);
  await shoot(page, "api-docs-signed-in-1366x768");
  await page.setViewportSize(PHONE);
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
  await shoot(page, "api-docs-signed-in-390x844");
});
