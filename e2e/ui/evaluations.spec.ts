// Evaluations in the console (docs/console.md, Evaluations): an admin evaluates an agent's draft
// from the Versions tab (a refused field, the dry run's figures, the start and its progress), reads
// the evaluation's page (figures side by side, the latency chart, the cases filtered in the URL),
// walks the cases with j/k, gives a verdict and publishes the draft from the page; a support member
// judges a case but can neither start nor cancel an evaluation; an admin cancels a running one; a
// workflow's draft is evaluated on the runs list's runs, its http steps replayed from the recordings
// (the receiver sees nothing) and then, once confirmed, sent for real, with the diff highlighted.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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

const orgPath = (p: string) => `/api/v1/organizations/${ui().orgA.organization_id}${p}`;

/** An echo agent with three answered sessions and a draft (version 2: the same echo, 5 ms slower). */
async function agentWithTraffic() {
  const agent = await management.createAgent(ECHO_AGENT(`evaluated ${Date.now()}`));
  const key = await management.mintKey("orgA", "evaluations");
  for (const message of ["where is my order", "cancel it please", "thanks"]) {
    const res = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: key, body: { message } });
    expect(res.status).toBe(200);
  }
  await management.updateAgent(agent.agent_id, { runtime: { type: "echo", delay_ms: 5 }, base_version: 1 });
  return agent.agent_id;
}

const caseView = (page: Page) => page.getByTestId("case-view");

test("evaluate the draft, read the evaluation, walk its cases with j/k, judge one and publish the draft", async ({
  as,
}) => {
  const agentId = await agentWithTraffic();
  const page = await as("adminA");
  await page.goto(`/agents/${agentId}?tab=versions`);
  await page.getByRole("button", { name: "Evaluate draft" }).click();
  const dialog = page.getByRole("dialog", { name: "Evaluate draft version 2" });

  // A limit over 500 is the API's field error, shown at the field.
  await dialog.getByLabel("Cases").fill("600");
  await dialog.getByRole("button", { name: "Dry run" }).click();
  await expect(dialog.getByRole("alert").first()).toContainText("Cases");
  await dialog.getByLabel("Cases").fill("10");
  await dialog.getByRole("button", { name: "Add an expression check" }).click();
  await dialog.getByLabel("Check 1 name").fill("echoes the question");
  await dialog.getByLabel("Check 1 expression").fill("$contains(output, input)");
  await dialog.getByRole("button", { name: "Dry run" }).click();
  const dry = dialog.getByTestId("dry-run");
  await expect(dry).toContainText("Cases3");
  await expect(dry).toContainText("Model calls3");
  await expectAccessible(page);
  await screenshots(page, "evaluation-dry-run");
  await dialog.getByRole("button", { name: "Start evaluation" }).click();
  await expect(dialog.getByTestId("evaluation-started")).toContainText("3 of 3 cases done");
  await dialog.getByRole("link", { name: "Open the evaluation" }).click();

  // The evaluation's page: done, the figures side by side, the chart.
  await expect(page).toHaveURL(/\/agents\/agt_[^/]+\/evaluations\/eval_/);
  await expect(page.getByRole("heading", { name: "Evaluation of version 2 (draft)" })).toBeVisible();
  await expect(page.getByTestId("evaluation-progress")).toHaveText("3 of 3 cases done");
  await expect(page.getByRole("table", { name: "Figures of both sides" })).toContainText("Latency p95");
  await expect(page.getByTestId("latency-chart")).toBeVisible();
  await expect(page.getByTestId("count-passed")).toHaveText("3");
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "evaluation-page");

  // Filters live in the URL.
  const cases = page.getByRole("table", { name: "Cases", exact: true });
  await page.getByRole("combobox", { name: "Outcome" }).selectOption("failed");
  await expect(page).toHaveURL(/[?&]outcome=failed/);
  await expect(page.getByText("No case matches these filters")).toBeVisible();
  await page.getByRole("combobox", { name: "Outcome" }).selectOption("passed");
  await expect(page).toHaveURL(/[?&]outcome=passed/);
  await expect(cases.locator("tbody tr")).toHaveCount(3);

  // The case view: j and k move through the page's cases; a verdict is saved and counted.
  await cases.getByRole("button", { name: "Open case 1" }).click();
  await expect(caseView(page)).toBeVisible();
  const first = await caseView(page).getAttribute("data-case");
  await expect(caseView(page)).toContainText("echoes the question");
  await page.keyboard.press("j");
  await expect(caseView(page)).not.toHaveAttribute("data-case", first!);
  await expect(page.getByRole("dialog")).toContainText("2 of 3 on this page");
  await page.keyboard.press("k");
  await expect(caseView(page)).toHaveAttribute("data-case", first!);
  await expectAccessible(page);
  await screenshots(page, "evaluation-case");
  await caseView(page).getByLabel("Note").fill("reads the same");
  await caseView(page).getByRole("button", { name: "Better (b)" }).click();
  await expect(caseView(page)).toContainText("Verdict: better");
  await expect(page.getByTestId("count-better")).toHaveText("1");
  await page.keyboard.press("Escape");

  // A support member judges another case (and may not cancel or publish).
  const support = await as("supportA");
  await support.goto(page.url());
  await expect(support.getByTestId("count-better")).toHaveText("1");
  await expect(support.getByRole("button", { name: "Publish version 2" })).toHaveCount(0);
  await support.getByRole("button", { name: "Open case 2" }).click();
  await support.keyboard.press("w");
  await expect(caseView(support)).toContainText("Verdict: worse");
  await expect(support.getByTestId("count-worse")).toHaveText("1");

  // Publish the draft from the page.
  await page.getByRole("button", { name: "Publish version 2" }).click();
  const confirm = page.getByRole("dialog", { name: "Publish version 2?" });
  await confirm.getByRole("button", { name: "Publish version 2" }).click();
  await expect(page.getByText("Version 2 is live")).toBeVisible();
  const agent = await management.getAgent(agentId);
  expect(agent).toMatchObject({ published_version: 2, draft_version: null });
  await expect(page.getByRole("button", { name: "Publish version 2" })).toHaveCount(0);

  // The sessions list evaluates a version on its filtered sessions: it needs one agent first.
  await page.goto("/sessions");
  await expect(page.getByRole("button", { name: "Evaluate a version on these" })).toBeDisabled();
  await expect(page.getByText("Filter to one agent first")).toBeVisible();
  await page.goto(`/sessions?agent_id=${agentId}`);
  await page.getByRole("button", { name: "Evaluate a version on these" }).click();
  const onThese = page.getByRole("dialog", { name: "Evaluate a version on these" });
  // Versions are picked from the agent's, not typed.
  await onThese.getByLabel("Candidate").selectOption("1");
  await onThese.getByRole("button", { name: "Dry run" }).click();
  await expect(onThese.getByTestId("dry-run")).toContainText("Cases3");
  await expectAccessible(page);
  await onThese.getByRole("button", { name: "Cancel" }).click();

  // The agent's Evaluations tab lists it.
  await page.goto(`/agents/${agentId}?tab=evaluations`);
  await expect(page.getByRole("table", { name: "Evaluations" })).toContainText("Version 2 (draft) vs recorded");
  await expectAccessible(page);
});

test("support cannot start or cancel an evaluation; an admin cancels a running one", async ({ as }) => {
  const agentId = await agentWithTraffic();
  // A slow draft: the evaluation is still running when the pages look at it.
  await management.updateAgent(agentId, { runtime: { type: "echo", delay_ms: 60_000 }, base_version: 2 });
  const made = await call("POST", orgPath(`/agents/${agentId}/evaluations`), {
    auth: ui().orgA.user_token,
    body: { source: { kind: "sessions", limit: 3 } },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const href = `/agents/${agentId}/evaluations/${made.body.evaluation_id}`;

  const support = await as("supportA");
  await support.goto(`/agents/${agentId}?tab=versions`);
  await expect(support.getByRole("table", { name: "Versions" })).toBeVisible();
  await expect(support.getByRole("button", { name: "Evaluate draft" })).toHaveCount(0);
  await support.goto(href);
  await expect(support.getByRole("progressbar", { name: "Evaluation progress" })).toBeVisible();
  await expect(support.getByRole("button", { name: "Cancel evaluation" })).toHaveCount(0);
  const admin = await as("adminA");
  await admin.goto(href);
  await expect(admin.getByRole("progressbar", { name: "Evaluation progress" })).toBeVisible();
  await expectAccessible(admin);
  await screenshots(admin, "evaluation-running");
  await admin.getByRole("button", { name: "Cancel evaluation" }).click();
  await admin
    .getByRole("dialog", { name: "Cancel this evaluation?" })
    .getByRole("button", { name: "Cancel evaluation" })
    .click();
  await expect(admin.getByText("Evaluation cancelled")).toBeVisible();
  await expect(admin.getByRole("button", { name: "Cancel evaluation" })).toHaveCount(0);
});

/** A lookup service a workflow's http step calls: answers `{value: n}` for each item, and counts calls. */
async function lookupService() {
  let calls = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      calls++;
      const n = (JSON.parse(body || "{}") as { item?: { n?: number } }).item?.n ?? 0;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ value: n }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/lookup`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const scoring = (url: string, factor: number) => ({
  inputs: { rows: { type: "array", required: true } },
  items: { from: "rows" },
  steps: [
    { id: "lookup", type: "http", url },
    { id: "score", type: "transform", expression: `{"n": item.n, "score": item.lookup.value * ${factor}}` },
  ],
});

test("a workflow draft on the runs list's runs: http steps replay their recordings, live calls only once confirmed, the diff highlighted", async ({
  as,
}) => {
  const lookup = await lookupService();
  try {
    const agent = await management.createAgent({
      name: `scoring ${Date.now()}`,
      kind: "workflow",
      runtime: { type: "echo" },
      workflow: scoring(lookup.url, 2),
    });
    const agentId = agent.agent_id;
    const key = await management.mintKey("orgA", "evaluated runs");
    const runIds: string[] = [];
    for (const rows of [
      [{ n: 1 }, { n: 2 }],
      [{ n: 3 }, { n: 4 }],
    ]) {
      const res = await call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body: { rows } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      runIds.push(res.body.run_id);
    }
    for (const runId of runIds) {
      await expect
        .poll(async () => (await call("GET", `/api/agents/${agentId}/runs/${runId}`, { auth: key })).body.status, {
          timeout: 30_000,
        })
        .toBe("completed");
    }
    expect(lookup.calls()).toBe(4);
    // The draft scores three times the value: every item's output changes.
    await management.updateAgent(agentId, { workflow: scoring(lookup.url, 3), base_version: 1 });

    const page = await as("adminA");
    await page.goto(`/runs?agent_id=${agentId}`);
    await page.getByRole("button", { name: "Evaluate a version on these" }).click();
    const dialog = page.getByRole("dialog", { name: "Evaluate a version on these" });
    await expect(dialog.getByText("Off: each http step answers what the original run's step answered")).toBeVisible();
    await dialog.getByRole("button", { name: "Dry run" }).click();
    await expect(dialog.getByTestId("dry-run")).toContainText("Cases2");
    await expect(dialog.getByTestId("dry-run")).toContainText("none (recorded answers replayed)");
    await dialog.getByRole("button", { name: "Start evaluation" }).click();
    await expect(dialog.getByTestId("evaluation-started")).toContainText("2 of 2 cases done");
    // Replayed from the recordings: the lookup service saw no call.
    expect(lookup.calls()).toBe(4);
    await dialog.getByRole("link", { name: "Open the evaluation" }).click();
    await expect(page.getByTestId("count-changed")).toHaveText("2");

    // The case view: baseline and candidate side by side, what changed marked as deleted and inserted.
    await page.getByRole("table", { name: "Cases", exact: true }).getByRole("button", { name: "Open case 1" }).click();
    const diff = caseView(page).getByTestId("case-diff");
    await expect(diff.locator("del").first()).toBeVisible();
    await expect(diff.locator("ins").first()).toBeVisible();
    await expect(diff.locator("ins").first()).toContainText(/\d/);
    await expectAccessible(page);
    await screenshots(page, "evaluation-workflow-diff");
    await page.keyboard.press("Escape");

    // Live calls: asked for, counted by the dry run, and started only once confirmed.
    await page.goto(`/runs?agent_id=${agentId}`);
    await page.getByRole("button", { name: "Evaluate a version on these" }).click();
    await dialog.getByLabel("Send http steps for real (live calls)").check();
    await expect(dialog.getByTestId("live-calls-warning")).toContainText("the systems behind them see real requests");
    await dialog.getByRole("button", { name: "Dry run" }).click();
    await expect(dialog.getByTestId("dry-run")).toContainText("4 sent for real");
    const startButton = dialog.getByRole("button", { name: "Start evaluation" });
    await expect(startButton).toBeDisabled();
    await expect(dialog.getByTestId("live-calls-unconfirmed")).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, "evaluation-live-calls");
    await dialog.getByLabel("I confirm: send the http steps for real").check();
    await expect(startButton).toBeEnabled();
    await startButton.click();
    await expect(dialog.getByTestId("evaluation-started")).toContainText("2 of 2 cases done");
    // Each replayed item's http step was sent once, for real.
    expect(lookup.calls()).toBe(8);

    // The agent's usage shows the replays apart from production's figures, as evaluation usage
    // (flushed within a second of each case: the page is read again until they are there).
    await page.goto(`/agents/${agentId}`);
    await expect(async () => {
      await page.reload();
      await expect(page.getByText("and apart from these, evaluations: 4 cases")).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByText(/^0 triggers · no replies · 0 tokens/)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Evaluation usage" })).toBeVisible();
  } finally {
    await lookup.close();
  }
});
