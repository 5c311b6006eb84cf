// Every console page, in a real browser: accessible (axe), screenshots at laptop and phone
// sizes, no horizontal page scroll on a phone, and the JavaScript a first visit downloads.
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import {
  call,
  ECHO_AGENT,
  expect,
  expectAccessible,
  expectFitsPhone,
  management,
  screenshots,
  test,
  ui,
} from "./fixtures";

const BUDGET_BYTES = 250 * 1024;
/**
 * Pages with usage charts load Recharts (about 130 KB compressed) right after the page, so they get
 * their own, larger budget: a lighter chart library (uPlot) is the way back under BUDGET_BYTES.
 */
const CHART_BUDGET_BYTES = 350 * 1024;

const WORKFLOW = {
  name: "Order review",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { orders: { type: "array", required: true } },
    items: { from: "orders" },
    steps: [
      { id: "total", type: "transform", expression: "$merge([item, {'total': item.qty * item.price}])" },
      { id: "big", type: "review", when: "item.total > 100", message: "large order" },
    ],
    output: { filename: "orders.csv", format: "csv" },
  },
};

interface Seed {
  echo: string;
  workflow: string;
  sessionId: string;
  reviewRun: string;
  doneRun: string;
}

let seed: Seed;

async function waitForRun(key: string, agent: string, runId: string, status: string) {
  await expect
    .poll(async () => (await call("GET", `/api/agents/${agent}/runs/${runId}`, { auth: key })).body.status, {
      timeout: 30_000,
    })
    .toBe(status);
}

test.beforeAll(async () => {
  const echo = await management.createAgent(ECHO_AGENT("Support bot"));
  const workflow = await management.createAgent(WORKFLOW);
  const key = await management.mintKey("orgA", "pages-spec");
  const first = await call("POST", `/api/agents/webhook/${echo.agent_id}`, {
    auth: key,
    body: { message: "Where is my order?", user_id: "customer-42" },
  });
  await call("POST", `/api/agents/webhook/${echo.agent_id}`, {
    auth: key,
    body: { message: "It was order 1234.", session_id: first.body.session_id },
  });
  const review = await call("POST", `/api/agents/webhook/${workflow.agent_id}`, {
    auth: key,
    body: {
      orders: [
        { qty: 1, price: 5 },
        { qty: 30, price: 10 },
        { qty: 2, price: 3 },
      ],
    },
  });
  const done = await call("POST", `/api/agents/webhook/${workflow.agent_id}`, {
    auth: key,
    body: {
      orders: [
        { qty: 1, price: 5 },
        { qty: 2, price: 3 },
      ],
    },
  });
  await waitForRun(key, workflow.agent_id, review.body.run_id, "needs_review");
  await waitForRun(key, workflow.agent_id, done.body.run_id, "completed");
  seed = {
    echo: echo.agent_id,
    workflow: workflow.agent_id,
    sessionId: first.body.session_id,
    reviewRun: review.body.run_id,
    doneRun: done.body.run_id,
  };
});

const PAGES: { name: string; path: () => string; heading: RegExp; charts?: true }[] = [
  { name: "overview", path: () => "/", heading: /Overview/, charts: true },
  { name: "keys", path: () => "/keys", heading: /Access Keys/ },
  { name: "webhooks", path: () => "/webhooks", heading: /Webhooks/ },
  { name: "agents", path: () => "/agents", heading: /Agents/ },
  { name: "agent-new", path: () => "/agents/new", heading: /agent/i },
  { name: "agent-conversational", path: () => `/agents/${seed.echo}`, heading: /Support bot/, charts: true },
  { name: "agent-workflow", path: () => `/agents/${seed.workflow}`, heading: /Order review/, charts: true },
  { name: "sessions", path: () => "/sessions", heading: /Sessions/ },
  { name: "session-thread", path: () => `/sessions/${seed.sessionId}`, heading: /Session/i },
  { name: "runs", path: () => "/runs", heading: /Runs/ },
  { name: "run-needs-review", path: () => `/runs/${seed.reviewRun}`, heading: /Run|Order review/ },
  { name: "run-completed", path: () => `/runs/${seed.doneRun}`, heading: /Run|Order review/ },
  { name: "uploads", path: () => "/uploads", heading: /Uploads/ },
  { name: "members", path: () => "/members", heading: /Members/ },
  { name: "secrets", path: () => "/settings/secrets", heading: /Secrets/ },
  { name: "retention", path: () => "/settings/retention", heading: /Retention/ },
  { name: "audit", path: () => "/audit", heading: /Audit/ },
  { name: "exports", path: () => "/exports", heading: /Exports/ },
];

/** Compressed bytes of the JavaScript a first visit (empty cache) downloads. */
async function firstLoadJs(page: Page, url: string): Promise<number> {
  const scripts: Promise<number>[] = [];
  page.on("requestfinished", (req) => {
    if (req.resourceType() === "script") scripts.push(req.sizes().then((s) => s.responseBodySize));
  });
  // Live pages hold a long poll open (/api/console/changes, up to 25 s), so the network is never idle
  // while it runs: it is refused here (the page backs off for 2 s and more), which leaves the scripts
  // of the first load to be counted.
  await page.route("**/api/console/changes**", (route) => route.abort());
  await page.goto(url, { waitUntil: "networkidle" });
  return (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
}

test("every page as an admin: accessible, fits a phone, screenshots, first-load JS under budget", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const weights: Record<string, number> = {};
  for (const p of PAGES) {
    const context = await browser.newContext({ storageState: ui().users.adminA.state });
    const page = await context.newPage();
    const url = p.path();
    weights[`${p.name} (${url})`] = await firstLoadJs(page, url);
    await expect(page.getByRole("heading", { level: 1 }).first(), url).toHaveText(p.heading);
    await expectAccessible(page);
    await expectFitsPhone(page);
    await screenshots(page, `page-${p.name}`);
    await context.close();
  }
  writeFileSync(
    path.resolve(import.meta.dirname, "../../test-results/first-load-js.json"),
    JSON.stringify(weights, null, 2),
  );
  for (const p of PAGES) {
    const [url, bytes] = Object.entries(weights).find(([k]) => k.startsWith(`${p.name} (`))!;
    expect(bytes, `${url}: ${bytes} bytes`).toBeLessThan(p.charts ? CHART_BUDGET_BYTES : BUDGET_BYTES);
  }
});

test("support's view of admin pages: read-only keys, no member management", async ({ as }) => {
  const page = await as("supportA");
  for (const [p, text] of [
    ["/members", "Admins only"],
    ["/audit", "Admins only"],
  ] as const) {
    await page.goto(p);
    await expect(page.getByText(text)).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, `support${p.replace("/", "-")}`);
  }
  await expect(page.getByRole("link", { name: "Members" })).toHaveCount(0);
});
