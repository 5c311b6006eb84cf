// Agents in the console: create and edit with field errors where they belong (runtime inputs,
// JSON lines of the workflow definition), an edit saved as a draft and published (versions in depth:
// versions.spec.ts), and the test console (draft chat sessions that never
// reach the public API; workflow runs started by hand).
import { call, ECHO_AGENT, expect, expectAccessible, management, screenshots, test, ui } from "./fixtures";

/** A path of the organization API: Acme's (org A) unless another is named. */
const orgApi = (path: string, org: "orgA" | "orgB" = "orgA") =>
  `/api/v1/organizations/${ui()[org].organization_id}${path}`;

const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

test("an admin creates a workflow agent: a broken expression is shown at its line, then fixed and saved", async ({
  as,
}) => {
  const page = await as("adminA");
  await page.goto("/agents");
  await page.getByRole("link", { name: "New agent" }).click();
  await expect(page).toHaveURL(/\/agents\/new$/);
  await expect(page.getByRole("heading", { name: "New agent" })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "agents-new");

  const name = `orders check ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("radio", { name: /^Workflow/ }).check();
  const editor = page.getByLabel("Definition (JSON)");
  // The starter template is valid as it is.
  await expect(editor).toHaveValue(/"steps"/);

  // Invalid JSON is reported in the browser, with its line, before anything is sent.
  await editor.fill('{\n  "steps": [\n    { "id": "a", }\n  ]\n}');
  await page.getByRole("button", { name: "Create agent" }).click();
  await expect(page.getByText(/^line 3: invalid JSON/)).toBeVisible();
  const gutter = page.getByTestId("json-gutter");
  await expect(gutter.locator('[data-line="3"]')).toHaveAttribute("data-invalid", "true");

  const definition = (when: string) =>
    JSON.stringify(
      {
        inputs: { orders: { type: "array", required: true }, threshold: { type: "number" } },
        items: { from: "orders" },
        steps: [
          { id: "total", type: "transform", expression: "$merge([item, {'total': item.qty * item.price}])" },
          { id: "big", type: "review", when, message: "large order" },
        ],
      },
      null,
      2,
    );
  const broken = definition("item.total >");
  await editor.fill(broken);
  // A runtime field error lands under its input too.
  await page.getByLabel("Runtime type").selectOption("echo");
  await page.getByLabel("Delay (ms)").fill("-5");
  await page.getByRole("button", { name: "Create agent" }).click();

  const line = lineOf(broken, '"when": "item.total >"');
  expect(line).toBeGreaterThan(1);
  const error = page.getByRole("alert").filter({ hasText: "workflow.steps.1.when" });
  await expect(error).toContainText(`line ${line}: invalid JSONata expression`);
  await expect(gutter.locator(`[data-line="${line}"]`)).toHaveAttribute("data-invalid", "true");
  await expect(gutter.locator("[data-invalid]")).toHaveCount(1);
  await expect(page.getByLabel("Delay (ms)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("must be at least 0")).toBeVisible();
  await screenshots(page, "agents-new-errors");

  // "line N" puts the caret on that line.
  await error.getByRole("button", { name: `line ${line}` }).click();
  await expect(editor).toBeFocused();

  await editor.fill(definition("item.total > inputs.threshold"));
  await page.getByLabel("Delay (ms)").fill("0");
  await page.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(/\/agents\/agt_[0-9A-Za-z]+$/);
  const agentId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByRole("heading", { name })).toBeVisible();

  await page.goto("/agents");
  const row = page.getByRole("table", { name: "Agents" }).getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("workflow");
  await expect(row.getByRole("link", { name })).toHaveAttribute("href", `/agents/${agentId}`);
  await expectAccessible(page);
  await screenshots(page, "agents-list");

  const org = ui().orgA;
  const listed = await call("GET", `/api/v1/organizations/${org.organization_id}/agents`, { auth: org.user_token });
  expect(listed.status).toBe(200);
  const saved = listed.body.agents.find((a: { agent_id: string }) => a.agent_id === agentId);
  expect(saved).toMatchObject({ name, kind: "workflow", runtime: { type: "echo", delay_ms: 0 } });
  expect(saved.workflow.steps[1].when).toBe("item.total > inputs.threshold");
});

test("an admin edits an agent: a bad runtime URL is shown under its input, the kind stays, a rename is live at once", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT(`edit me ${Date.now()}`));
  const page = await as("adminA");
  await page.goto(`/agents/${agent.agent_id}`);
  await page.getByRole("tab", { name: "Settings" }).click();
  await expect(page).toHaveURL(/[?&]tab=settings/);
  await expect(page.getByText("The kind of an agent cannot change.")).toBeVisible();
  await page.getByLabel("Runtime type").selectOption("http");
  await page.getByLabel("URL", { exact: true }).fill("ftp://example.com/agent");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByLabel("URL", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("must be an http(s) URL")).toBeVisible();

  // The runtime back as it was and a new name: the name changes at once, no version is written.
  await page.getByLabel("Runtime type").selectOption("echo");
  await page.getByLabel("Name", { exact: true }).fill(`${agent.name} renamed`);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("heading", { name: `${agent.name} renamed` })).toBeVisible();
  await expect(page.getByText("Changes saved.")).toBeVisible();
  const res = await page.request.get(`/api/v1/organizations/${ui().orgA.organization_id}/agents/${agent.agent_id}`);
  expect(await res.json()).toMatchObject({ name: `${agent.name} renamed`, published_version: 1, draft_version: null });
});

test("an admin's runtime edit is a draft until published: Save and publish makes it live", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`publish me ${Date.now()}`));
  const key = await management.mintKey("orgA", "agents publish test");
  const page = await as("adminA");
  await page.goto(`/agents/${agent.agent_id}?tab=settings`);
  await page.getByLabel("Delay (ms)").fill("2");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Saved as draft version 2: not live until published.")).toBeVisible();
  expect(await management.getAgent(agent.agent_id)).toMatchObject({ published_version: 1, draft_version: 2 });
  const before = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: key, body: { message: "a" } });
  expect(before.body.agent_version).toBe(1);

  await page.getByLabel("Delay (ms)").fill("3");
  await page.getByRole("button", { name: "Save and publish" }).click();
  await expect(page.getByText("Published version 3: new sessions and runs use it.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Unpublished draft" })).toHaveCount(0);
  expect(await management.getAgent(agent.agent_id)).toMatchObject({
    published_version: 3,
    draft_version: null,
    runtime: { type: "echo", delay_ms: 3 },
  });
  const after = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: key, body: { message: "b" } });
  expect(after.body.agent_version).toBe(3);
});

test("chat in the test console: the reply shows latency, tokens and cost, and its draft session stays out of the public API", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT(`console echo ${Date.now()}`));
  const page = await as("adminA");
  await page.goto(`/agents/${agent.agent_id}`);
  await expect(page.getByRole("note")).toContainText("drafts");

  const message = page.getByLabel("Message", { exact: true });
  await message.fill("hello console");
  await page.getByRole("button", { name: "Send" }).click();
  const reply = page.getByTestId("chat-reply").first();
  await expect(reply).toContainText("Echo: hello console");
  const meta = reply.getByTestId("reply-meta");
  await expect(meta).toContainText(/Latency [\d.]+ (ms|s)/);
  await expect(meta).toContainText(/Tokens \d+ prompt \+ \d+ completion = \d+/);
  await expect(meta).toContainText("Cost $0.00");
  await expect(meta).toContainText("Model echo");
  await expect(meta).toContainText("Version 1");

  const view = page.getByRole("link", { name: "View session" });
  const href = (await view.getAttribute("href"))!;
  expect(href).toMatch(/^\/sessions\/sess_[0-9A-Za-z]+$/);
  const sessionId = href.split("/").pop()!;

  // The next message continues the same session (Enter sends).
  await message.fill("second");
  await message.press("Enter");
  await expect(page.getByTestId("chat-reply")).toHaveCount(2);
  await expect(page.getByTestId("chat-reply").nth(1)).toContainText("Echo: second");
  await expect(view).toHaveAttribute("href", href);
  await expectAccessible(page);
  await screenshots(page, "agents-detail-conversational");

  // Listed by the console as a draft...
  const drafts = await page.request.get(
    `/api/v1/organizations/${ui().orgA.organization_id}/sessions?environment=draft&agent_id=${agent.agent_id}`,
  );
  expect(drafts.status()).toBe(200);
  const draft = (await drafts.json()).sessions.find((s: { session_id: string }) => s.session_id === sessionId);
  expect(draft).toMatchObject({ environment: "draft", message_count: 4 });

  // ...and invisible to the public API.
  const key = await management.mintKey("orgA", "agents console test");
  const list = await call("GET", `/api/agents/${agent.agent_id}/sessions`, { auth: key });
  expect(list.status).toBe(200);
  expect(list.body.sessions.map((s: { session_id: string }) => s.session_id)).not.toContain(sessionId);
  const one = await call("GET", `/api/agents/${agent.agent_id}/sessions/${sessionId}`, { auth: key });
  expect(one.status).toBe(404);
  expect(one.body.error.code).toBe("session_not_found");

  // "New conversation" starts over.
  await page.getByRole("button", { name: "New conversation" }).click();
  await expect(page.getByTestId("chat-reply")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "View session" })).toHaveCount(0);
});

test("a failing agent's error shows in the thread with the request id", async ({ as }) => {
  const agent = await management.createAgent({
    name: `failing ${Date.now()}`,
    kind: "conversational",
    runtime: { type: "echo", fail: "error" },
  });
  const page = await as("adminA");
  await page.goto(`/agents/${agent.agent_id}`);
  await page.getByLabel("Message", { exact: true }).fill("hello");
  await page.getByRole("button", { name: "Send" }).click();
  const err = page.getByTestId("chat-error");
  await expect(err).toContainText("upstream_error");
  await expect(err).toContainText(/request id: req_/);
  await expect(err.getByRole("link", { name: "View session" })).toHaveAttribute("href", /^\/sessions\/sess_/);
});

test("a support member: no agent creation, read-only settings, the console works, a crafted PATCH gets 403", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT(`support view ${Date.now()}`));
  const page = await as("supportA");
  await page.goto("/agents");
  await expect(page.getByRole("table", { name: "Agents" })).toContainText(agent.name);
  await expect(page.getByRole("link", { name: "New agent" })).toHaveCount(0);

  await page.goto("/agents/new");
  await expect(page.getByRole("heading", { name: "Admins only" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create agent" })).toHaveCount(0);
  await expectAccessible(page);

  await page.goto(`/agents/${agent.agent_id}`);
  await expect(page.getByRole("heading", { name: agent.name })).toBeVisible();
  await page.getByLabel("Message", { exact: true }).fill("support says hi");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("chat-reply")).toContainText("Echo: support says hi");

  await page.getByRole("tab", { name: "Settings" }).click();
  await expect(page.getByText("You have read access. Admins edit agents.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Save/ })).toHaveCount(0);
  await expect(page.getByLabel("Name", { exact: true })).toHaveCount(0);

  const res = await page.request.patch(`/api/v1/organizations/${ui().orgA.organization_id}/agents/${agent.agent_id}`, {
    data: { name: "sneaky" },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.code).toBe("forbidden");
  const still = await page.request.get(`/api/v1/organizations/${ui().orgA.organization_id}/agents/${agent.agent_id}`);
  expect((await still.json()).name).toBe(agent.name);
});

test("start a workflow run from the console with JSON inputs and open it", async ({ as }) => {
  const agent = await management.createAgent({
    name: `console runs ${Date.now()}`,
    kind: "workflow",
    runtime: { type: "echo" },
    workflow: {
      inputs: { orders: { type: "array", required: true }, label: { type: "string" } },
      items: { from: "orders" },
      steps: [{ id: "mark", type: "transform", expression: "$merge([item, {'seen': true}])" }],
    },
  });
  const page = await as("adminA");
  await page.goto(`/agents/${agent.agent_id}`);
  const editor = page.getByLabel("Inputs (JSON)");
  // Prefilled from the declared inputs.
  await expect(editor).toHaveValue(/"orders": \[\]/);
  await expect(editor).toHaveValue(/"label": ""/);

  // A value of the wrong type is refused at its line.
  await editor.fill('{\n  "label": "x",\n  "orders": "not a list"\n}');
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "(orders)" })).toContainText("line 3:");
  const gutter = page.locator('[data-testid="json-gutter"][data-editor="Inputs (JSON)"]');
  await expect(gutter.locator('[data-line="3"]')).toHaveAttribute("data-invalid", "true");

  await editor.fill(JSON.stringify({ orders: [{ n: 1 }, { n: 2 }], label: "from the console" }, null, 2));
  await page.getByRole("button", { name: "Start run" }).click();
  const link = page.getByRole("link", { name: /Open run/ });
  await expect(link).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "agents-detail-workflow");

  await link.click();
  await expect(page).toHaveURL(/\/runs\/run_[0-9A-Za-z]+$/);
  const runId = new URL(page.url()).pathname.split("/").pop()!;
  const run = await page.request.get(orgApi(`/runs/${runId}`));
  expect(run.status()).toBe(200);
  const body = await run.json();
  expect(body.agent_id).toBe(agent.agent_id);
  expect(body.inputs).toMatchObject({ label: "from the console" });
});

test("an admin archives an agent after confirming: the row shows Archived, triggers are refused, support cannot archive", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT(`archive me ${Date.now()}`));
  const page = await as("adminA");
  await page.goto("/agents");
  const row = page.getByRole("table", { name: "Agents" }).getByRole("row").filter({ hasText: agent.name });
  await expect(row.getByText("Archived", { exact: true })).toHaveCount(0);

  // Cancel first: nothing happens.
  await row.getByRole("button", { name: `Archive ${agent.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Archive ${agent.name}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("stay readable");
  await expectAccessible(page);
  await screenshots(page, "agents-archive-confirm");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  const before = await page.request.get(`/api/v1/organizations/${ui().orgA.organization_id}/agents/${agent.agent_id}`);
  expect((await before.json()).archived_at).toBeNull();

  await row.getByRole("button", { name: `Archive ${agent.name}` }).click();
  await dialog.getByRole("button", { name: "Archive agent" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText("Archived", { exact: true })).toBeVisible();
  await expect(row.getByRole("button", { name: `Archive ${agent.name}` })).toHaveCount(0);
  const after = await page.request.get(`/api/v1/organizations/${ui().orgA.organization_id}/agents/${agent.agent_id}`);
  expect((await after.json()).archived_at).not.toBeNull();

  // The detail page says so, and the test console is off.
  await row.getByRole("link", { name: agent.name }).click();
  await expect(page.getByRole("heading", { name: agent.name })).toBeVisible();
  await expect(page.getByText("Archived", { exact: true })).toBeVisible();
  await expect(page.getByText(/takes no new triggers or uploads/)).toBeVisible();
  await expect(page.getByLabel("Message", { exact: true })).toHaveCount(0);

  const key = await management.mintKey("orgA", "archived agent test");
  const refused = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: key, body: { message: "hi" } });
  expect(refused.status).toBe(409);
  expect(refused.body.error.code).toBe("agent_archived");

  // A support member sees the badge but no Archive button.
  const other = await management.createAgent(ECHO_AGENT(`not archivable ${Date.now()}`));
  const support = await as("supportA");
  await support.goto("/agents");
  const table = support.getByRole("table", { name: "Agents" });
  await expect(
    table.getByRole("row").filter({ hasText: agent.name }).getByText("Archived", { exact: true }),
  ).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: other.name })).toBeVisible();
  await expect(table.getByRole("button", { name: /^Archive / })).toHaveCount(0);
});

test("the agents list pages by cursor: newest first, Older and First page", async ({ as }) => {
  // One worker (playwright.config.ts): no other test adds agents meanwhile.
  const made = [];
  for (let i = 0; i < 3; i++) made.push(await management.createAgent(ECHO_AGENT(`paged agent ${i} ${Date.now()}`)));
  const page = await as("adminA");
  await page.goto("/agents?limit=2");
  const table = page.getByRole("table", { name: "Agents" });
  const names = () => table.locator("tbody tr td a").allTextContents();
  const pages = page.getByRole("navigation", { name: "Pages" });
  await expect.poll(names).toEqual([made[2]!.name, made[1]!.name]);
  await expect(pages).toContainText("1–2");

  await pages.getByRole("button", { name: "Older" }).click();
  await expect(page).toHaveURL(/[?&]cursor=[\w-]+/);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(pages).toContainText(/3(–4)?/); // "3" when the organization holds only these three
  expect((await names())[0]).toBe(made[0]!.name);

  await pages.getByRole("button", { name: "First page" }).click();
  await expect(page).not.toHaveURL(/cursor=/);
  await expect.poll(names).toEqual([made[2]!.name, made[1]!.name]);
});
