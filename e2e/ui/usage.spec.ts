// Usage charts in the console (docs/console.md, Usage charts): an agent's page charts its triggers
// from the rollups, each chart shows its data as a table on request, a quiet agent shows empty
// states, and the overview charts the organization; axe-clean at both sizes.
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

const usagePath = (q: string) => `/api/v1/organizations/${ui().orgA.organization_id}/usage?${q}`;

test("an agent's page charts its triggers, with a table alternative, at both sizes", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`charted ${Date.now()}`));
  const key = await management.mintKey("orgA", "usage charts");
  for (let i = 0; i < 3; i++) {
    const res = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
      auth: key,
      body: { message: `hi ${i}` },
    });
    expect(res.status).toBe(200);
  }
  // The rollups reach the database within about a second.
  await expect
    .poll(
      async () =>
        (await call("GET", usagePath(`group_by=agent&agent_id=${agent.agent_id}`), { auth: ui().orgA.user_token })).body
          .totals.replies_completed,
      { timeout: 15_000 },
    )
    .toBe(3);

  const page = await as("adminA");
  await page.goto(`/agents/${agent.agent_id}`);
  const usage = page.getByRole("region", { name: "Usage" });
  await expect(usage.getByText("3 triggers")).toBeVisible();
  const triggers = usage.locator("section", { has: page.getByRole("heading", { name: "Triggers", exact: true }) });
  await expect(triggers.locator(".recharts-wrapper svg.recharts-surface").first()).toBeVisible();
  // The table every chart carries for screen readers, and shows on request.
  await expect(triggers.getByRole("table")).toHaveCount(1);
  await triggers.getByRole("button", { name: "Show as table" }).click();
  const table = triggers.getByRole("table", { name: /Triggers, last 24 hours/ });
  await expect(table).toBeVisible();
  await expect(table.getByRole("cell", { name: "3", exact: true })).toBeVisible();
  await expect(triggers.getByRole("button", { name: "Show as chart" })).toHaveAttribute("aria-pressed", "true");
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "usage-agent-table");
  await triggers.getByRole("button", { name: "Show as chart" }).click();
  await usage.getByRole("button", { name: "7d" }).click();
  await expect(usage.getByRole("button", { name: "7d" })).toHaveAttribute("aria-pressed", "true");
  await expect(usage.getByText("3 triggers")).toBeVisible();
  // The range is kept in the URL: a reload shows the same one.
  await expect(page).toHaveURL(/[?&]usage=7d/);
  await page.reload();
  await expect(usage.getByRole("button", { name: "7d" })).toHaveAttribute("aria-pressed", "true");
  await expectAxisLabelsInside(page);
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "usage-agent");

  // A custom range of whole days: the form says what is wrong, then the charts show those days.
  const day = (offset: number) => {
    const d = new Date(Date.now() + offset * 86_400_000);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  };
  await usage.getByRole("button", { name: "Custom" }).click();
  const form = usage.getByRole("form", { name: "Custom range" });
  await form.getByLabel("First day").fill(day(0));
  await form.getByLabel("Last day").fill(day(-2));
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(form.getByRole("alert")).toHaveText("The first day must be on or before the last day.");
  await form.getByLabel("First day").fill(day(-2));
  await form.getByLabel("Last day").fill(day(0));
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`usage=custom&usage_from=${day(-2)}&usage_to=${day(0)}`));
  await expect(usage.getByRole("button", { name: "Custom" })).toHaveAttribute("aria-pressed", "true");
  await expect(usage.getByText("3 triggers")).toBeVisible();
  await triggers.getByRole("button", { name: "Show as table" }).click();
  await expect(triggers.getByRole("table", { name: /^Triggers, \w+ \d+ to \w+ \d+$/ })).toBeVisible();
  await page.reload();
  await expect(usage.getByRole("button", { name: "Custom" })).toHaveAttribute("aria-pressed", "true");
  await expect(usage.getByText("3 triggers")).toBeVisible();
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "usage-agent-custom");
});

/** Every chart's Y axis labels start inside the chart (a fixed axis width clipped long ones). */
async function expectAxisLabelsInside(page: import("@playwright/test").Page) {
  const ticks = page.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value");
  await expect(ticks.first()).toBeVisible();
  const lefts = await ticks.evaluateAll((all) => all.map((t) => (t as SVGGraphicsElement).getBBox().x));
  expect(lefts.length).toBeGreaterThan(0);
  expect(lefts.filter((x) => x < 0)).toEqual([]);
}

test("a quiet agent's charts say there is nothing yet", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`quiet ${Date.now()}`));
  const page = await as("supportA");
  await page.goto(`/agents/${agent.agent_id}`);
  const usage = page.getByRole("region", { name: "Usage" });
  await expect(usage.getByText("No triggers in the last 24 hours")).toBeVisible();
  await expect(usage.getByText("No runs by outcome in the last 24 hours")).toBeVisible();
  await expect(usage.getByRole("button", { name: "Show as table" })).toHaveCount(0);
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "usage-empty");
});

test("the overview charts the organization's usage", async ({ as }) => {
  const page = await as("adminA");
  await page.goto("/");
  const usage = page.getByRole("region", { name: "Usage" });
  await expect(usage.getByRole("heading", { name: "Reply latency" })).toBeVisible();
  await usage.getByRole("button", { name: "30d" }).click();
  await expect(usage.getByRole("button", { name: "30d" })).toHaveAttribute("aria-pressed", "true");
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "usage-overview");
});
