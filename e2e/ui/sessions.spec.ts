// Sessions in the console: conversations triggered through the public API, listed with filters
// and pages kept in the URL, and their threads (live while a reply is being produced, errors shown).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { call, ECHO_AGENT, expect, expectAccessible, management, screenshots, test, ui } from "./fixtures";

const webhook = (agentId: string) => `/api/agents/webhook/${agentId}`;

/**
 * A customer agent endpoint for the `http` runtime, under the test's control: `/gate` answers only
 * when the test opens the gate (so a reply is `processing` for exactly as long as the test needs),
 * `/bad-request` answers HTTP 400 (not retryable: the message ends `error` at once).
 */
async function customerEndpoint() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let requests = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", async () => {
      requests++;
      if (req.url === "/bad-request") {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "no" }));
        return;
      }
      await gate;
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          content: "The gate opened.",
          model: "gate-model-1",
          token_usage: { prompt_tokens: 7, completion_tokens: 3 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    open: () => open(),
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        open();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test("a conversation through the API is listed, opens as a thread with both sides and their numbers", async ({
  as,
}) => {
  const agent = await management.createAgent(ECHO_AGENT(`sessions thread ${Date.now()}`));
  const key = await management.mintKey();
  const first = await call("POST", webhook(agent.agent_id), {
    auth: key,
    body: { message: "hello there\nsecond line", user_id: "end-user-42", metadata: { plan: "pro", seats: 3 } },
  });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const sessionId: string = first.body.session_id;
  const second = await call("POST", webhook(agent.agent_id), {
    auth: key,
    body: { message: "and again", session_id: sessionId },
  });
  expect(second.status).toBe(200);
  expect(second.body.session_id).toBe(sessionId);

  const page = await as("adminA");
  await page.goto("/sessions");
  await page.getByLabel("Agent", { exact: true }).selectOption({ label: agent.name });
  await expect(page).toHaveURL(new RegExp(`agent_id=${agent.agent_id}`));
  const rows = page.getByRole("table", { name: "Sessions" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  const row = page.locator(`tr[data-session-id="${sessionId}"]`);
  await expect(row).toContainText(agent.name);
  await expect(row).toContainText("end-user-42");
  await expect(row).toContainText("active");
  await expect(row).not.toContainText("draft");
  await expect(row.getByRole("cell").nth(5)).toHaveText("4");
  await expectAccessible(page);
  await screenshots(page, "sessions-list");

  await row.getByRole("link", { name: /^sess_/ }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}$`));
  const header = page.getByTestId("session-header");
  await expect(header).toContainText(sessionId);
  await expect(header).toContainText(agent.name);
  await expect(header).toContainText("end-user-42");
  await expect(header).toContainText("active");
  await expect(page.getByTestId("session-metadata")).toContainText('"plan": "pro"');

  const users = page.getByRole("article", { name: "User message" });
  const replies = page.getByRole("article", { name: "Assistant message" });
  await expect(users).toHaveCount(2);
  await expect(replies).toHaveCount(2);
  // Oldest first, line breaks kept.
  await expect(users.first()).toContainText("hello there");
  expect(await users.first().locator("p").first().innerText()).toBe("hello there\nsecond line");
  await expect(users.nth(1)).toContainText("and again");
  const reply = replies.first();
  await expect(reply).toContainText("Echo: hello there");
  await expect(reply.getByText("completed", { exact: true })).toBeVisible();
  await expect(reply.locator("dd").nth(0)).toHaveText("echo");
  await expect(reply.locator("dd").nth(1)).toHaveText(/^\d+ \(\d+ in, \d+ out\)$/);
  await expect(reply.locator("dd").nth(2)).toHaveText("$0.00");
  await expect(reply.locator("dd").nth(3)).toHaveText(/^\d+ ms$|^\d+\.\d\d s$/);
  await expect(page.getByRole("status").filter({ hasText: "updating live" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "session-thread");
});

test("session filters and pages live in the URL; drafts of the test console are marked", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`sessions filters ${Date.now()}`));
  const key = await management.mintKey();
  const production: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await call("POST", webhook(agent.agent_id), { auth: key, body: { message: `conversation ${i}` } });
    expect(res.status).toBe(200);
    production.push(res.body.session_id);
  }
  const page = await as("adminA");
  await page.goto("/sessions");
  const draft = await page.request.post(
    `/api/v1/organizations/${ui().orgA.organization_id}/agents/${agent.agent_id}/chat`,
    {
      data: { message: "trying it out" },
      headers: { origin: new URL(page.url()).origin },
    },
  );
  expect(draft.status(), await draft.text()).toBe(200);
  const draftId: string = (await draft.json()).session_id;

  const rows = page.getByRole("table", { name: "Sessions" }).locator("tbody tr");
  // The ids of the page asked for: the previous page's rows stay, marked busy, until it arrives.
  const shownIds = async () => {
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    return (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-session-id")))).sort();
  };

  // Two pages of two: production and draft sessions together.
  await page.goto(`/sessions?agent_id=${agent.agent_id}&limit=2`);
  await expect(rows).toHaveCount(2);
  const firstPage = await shownIds();
  await expect(page.getByRole("button", { name: "Newer" })).toBeDisabled();
  await page.getByRole("button", { name: "Older" }).click();
  await expect(page).toHaveURL(/[?&]cursor=[\w-]+/);
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText("3–4");
  await expect(rows).toHaveCount(2);
  const secondPage = await shownIds();
  expect([...firstPage, ...secondPage].sort()).toEqual([...production, draftId].sort());
  await expect(page.getByRole("button", { name: "Older" })).toBeDisabled();
  await page.reload();
  await expect(rows).toHaveCount(2);
  expect(await shownIds()).toEqual(secondPage);

  // Drafts only: none of the production sessions, the draft marked.
  await page.getByLabel("Environment").selectOption("draft");
  await expect(page).toHaveURL(/environment=draft/);
  await expect(page).not.toHaveURL(/cursor=/);
  await expect(rows).toHaveCount(1);
  expect(await shownIds()).toEqual([draftId]);
  await expect(rows.first().getByText("draft", { exact: true })).toBeVisible();

  await page.getByLabel("Environment").selectOption("production");
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText("1–2");
  await page.getByRole("button", { name: "Older" }).click();
  await expect(rows).toHaveCount(1);
  await page.getByRole("button", { name: "Newer" }).click();
  await expect(rows).toHaveCount(2);
  for (const id of await shownIds()) expect(production).toContain(id);

  // Status: every session here is active.
  await page.getByLabel("Status").selectOption("closed");
  await expect(page).toHaveURL(/status=closed/);
  await expect(page.getByText("No sessions match these filters")).toBeVisible();
  await page.getByLabel("Status").selectOption("active");
  await expect(rows).toHaveCount(2);

  // From: a day after every message shows none; the filter is sent as a date.
  await page.getByLabel("From").fill("2099-06-15");
  await expect(page).toHaveURL(/from=2099-06-15/);
  await expect(page.getByText("No sessions match these filters")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/sessions\?limit=2$/);
  await expect(rows).toHaveCount(2);
});

test("a thread updates live while a reply is processing, and shows a failed reply's error", async ({ as }) => {
  const endpoint = await customerEndpoint();
  try {
    const gated = await management.createAgent({
      name: `sessions live ${Date.now()}`,
      kind: "conversational",
      runtime: { type: "http", url: `${endpoint.base}/gate`, timeout_ms: 60_000 },
    });
    const key = await management.mintKey();
    const accepted = await call("POST", webhook(gated.agent_id), {
      auth: key,
      body: { message: "take your time" },
      headers: { prefer: "respond-async" },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);

    const page = await as("adminA");
    await page.goto(`/sessions/${accepted.body.session_id}`);
    const reply = page.getByRole("article", { name: "Assistant message" });
    await expect(reply.getByText("processing", { exact: true })).toBeVisible();
    // Not known yet: "—", never "$0.00" or "0 ms".
    for (const n of [1, 2, 3]) await expect(reply.locator("dd").nth(n)).toHaveText("—");
    await expect(page.getByRole("status").filter({ hasText: "updating live" })).toBeVisible();
    await expect.poll(endpoint.requests).toBeGreaterThan(0);
    endpoint.open();
    // No reload: the thread polls while a message is processing.
    await expect(reply.getByText("completed", { exact: true })).toBeVisible();
    await expect(reply).toContainText("The gate opened.");
    await expect(reply.locator("dd").nth(0)).toHaveText("gate-model-1");
    await expect(reply.locator("dd").nth(1)).toHaveText("10 (7 in, 3 out)");
    await expect(page.getByRole("status").filter({ hasText: "updating live" })).toHaveCount(0);
    await expect(page.getByTestId("session-header")).toContainText("10 (7 in, 3 out)");

    const failing = await management.createAgent({
      name: `sessions error ${Date.now()}`,
      kind: "conversational",
      runtime: { type: "http", url: `${endpoint.base}/bad-request` },
    });
    const doomed = await call("POST", webhook(failing.agent_id), {
      auth: key,
      body: { message: "this will fail" },
      headers: { prefer: "respond-async" },
    });
    expect(doomed.status).toBe(202);
    await page.goto(`/sessions/${doomed.body.session_id}`);
    const failed = page.getByRole("article", { name: "Assistant message" });
    await expect(failed.getByText("error", { exact: true })).toBeVisible();
    await expect(failed).toContainText("message_processing_failed");
    await expect(failed).toContainText("The agent runtime returned an error");
    // The upstream's own words never reach the page.
    await expect(failed).not.toContainText("HTTP 400");
    await expectAccessible(page);
    await screenshots(page, "session-thread-error");
  } finally {
    await endpoint.close();
  }
});

test("an empty sessions list says where sessions come from", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`sessions none ${Date.now()}`), "orgB");
  const page = await as("adminB");
  await page.goto(`/sessions?agent_id=${agent.agent_id}`);
  await expect(page.getByText("No sessions match these filters")).toBeVisible();
  await expect(page.getByText("Sessions appear when an agent is triggered")).toBeVisible();
  await expect(page.getByText("drafts come from the test console")).toBeVisible();
  await expect(page.getByLabel("Agent", { exact: true })).toHaveValue(agent.agent_id);
});
