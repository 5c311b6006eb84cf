// What every browser test shares: the context made by global-setup, pages signed in as each kind
// of user, calls to the public and management APIs (to set up data and to check what the
// console did), screenshots at laptop and phone sizes, and the accessibility check.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import type { UiContext } from "./global-setup";

export { expect };

export const ui = (): UiContext => JSON.parse(readFileSync(process.env.UI_CONTEXT!, "utf8")) as UiContext;

/** Runs the server's key clock (expiry, roll grace, the key sweep) `ms` ahead of real time; 0 puts it back. */
export const setServerClockAhead = (ms: number) => writeFileSync(ui().clockFile, String(ms));

type Role = keyof UiContext["users"];

export const test = base.extend<{ as: (role: Role) => Promise<Page> }>({
  as: async ({ browser }, use) => {
    const opened: { close(): Promise<void> }[] = [];
    await use(async (role) => {
      const context = await browser.newContext({ storageState: ui().users[role].state, baseURL: ui().baseUrl });
      opened.push(context);
      return context.newPage();
    });
    for (const c of opened) await c.close();
  },
});

export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A call to the service outside the browser: `auth` is an Access Key or a user token. */
export async function call<T = any>(
  method: string,
  p: string,
  opts: { auth?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiAnswer<T>> {
  const res = await fetch(`${ui().baseUrl}${p}`, {
    method,
    headers: {
      ...(opts.auth ? { authorization: `Bearer ${opts.auth}` } : {}),
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
      ...opts.headers,
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    redirect: "manual",
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

type Org = "orgA" | "orgB";

/** Management API (user token of the org's admin). */
export const management = {
  async createAgent(spec: unknown, org: Org = "orgA"): Promise<{ agent_id: string; name: string }> {
    const o = ui()[org];
    const res = await call("POST", `/api/v1/organizations/${o.organization_id}/agents`, {
      auth: o.user_token,
      body: spec,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  },
  /** PATCH of an agent: a runtime, workflow or callback URL change writes a draft (`publish: true` publishes it). */
  async updateAgent(agentId: string, body: unknown, org: Org = "orgA") {
    const o = ui()[org];
    const res = await call("PATCH", `/api/v1/organizations/${o.organization_id}/agents/${agentId}`, {
      auth: o.user_token,
      body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  },
  async getAgent(agentId: string, org: Org = "orgA") {
    const o = ui()[org];
    const res = await call("GET", `/api/v1/organizations/${o.organization_id}/agents/${agentId}`, {
      auth: o.user_token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  },
  async mintKey(org: Org = "orgA", name = "ui test"): Promise<string> {
    const o = ui()[org];
    const res = await call("POST", `/api/v1/organizations/${o.organization_id}/access-keys`, {
      auth: o.user_token,
      body: { name, permissions: ["agents:invoke"] },
    });
    expect(res.status).toBe(201);
    return res.body.key;
  },
};

export const ECHO_AGENT = (name = `echo ${Date.now()}`) => ({
  name,
  kind: "conversational",
  runtime: { type: "echo" },
});

/** A workflow agent whose one step passes each of its `rows` through. */
export const ROWS_WORKFLOW_AGENT = (name = `rows ${Date.now()}`) => ({
  name,
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "t", type: "transform", expression: "item" }],
  },
});

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots");

/**
 * Full-page screenshots at 1280x800 and 375x812, kept as test artifacts (not in CI unless
 * UI_SCREENSHOTS=1). A full-page capture draws sticky elements where the scroll leaves them (the
 * header would sit mid-page), so the header is pinned to the top for the capture.
 */
export async function screenshots(page: Page, name: string) {
  // They are for people to look at and assert nothing: CI keeps no artifacts, so it skips the
  // captures (two full-page renders and a wait each, at over 80 places in the specs).
  if (process.env.CI && process.env.UI_SCREENSHOTS !== "1") return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const before = page.viewportSize();
  const pin = await page.addStyleTag({ content: "body > header { position: static !important; }" });
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}x${height}.png`), fullPage: true });
  }
  await pin.evaluate((el) => (el as Element).remove());
  if (before) await page.setViewportSize(before);
}

/** At 375 px the page does not scroll sideways. */
export async function expectFitsPhone(page: Page) {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  // Polled: what sizes itself by a ResizeObserver (the charts) follows the new width a frame later.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: `${page.url()} scrolls sideways on a phone`,
    })
    .toBeLessThanOrEqual(0);
  if (before) await page.setViewportSize(before);
}

/**
 * axe-core over the page: no serious or critical WCAG 2.1 A/AA violation. `exclude`: selectors of
 * parts already checked in the same state (the API reference's operations, hundreds of them).
 * `rules`: "contrast" runs only the colour-contrast rule, "all-but-contrast" every other one (on a
 * page of tens of thousands of elements the contrast rule takes most of axe's time).
 */
export async function expectAccessible(
  page: Page,
  exclude: string[] = [],
  rules: "all" | "contrast" | "all-but-contrast" = "all",
) {
  // A colour mid-transition is not the page's colour (a button turning from disabled to enabled
  // passes through shades of too little contrast): the finite animations and transitions end first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const axe = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  for (const selector of exclude) axe.exclude(selector);
  if (rules === "contrast") axe.withRules(["color-contrast"]);
  if (rules === "all-but-contrast") axe.disableRules(["color-contrast"]);
  const result = await axe.analyze();
  const bad = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(bad, `${page.url()}`).toEqual([]);
}
