// Defects found walking the console (issue 21 §7) and message rendering at size (§3): each has the
// test that failed before its fix. Copy when the clipboard refuses, human field errors that clear,
// distinct short ids, "not found" for an unknown session, the favicon, a 200 KB message collapsed,
// and the test console refusing input over the API's body limit before sending.
import type { Page } from "@playwright/test";
import {
  call,
  ECHO_AGENT,
  expect,
  expectAccessible,
  expectFitsPhone,
  management,
  ROWS_WORKFLOW_AGENT,
  screenshots,
  test,
  ui,
} from "./fixtures";

const webhook = (agentId: string) => `/api/agents/webhook/${agentId}`;
const COPY_FAILED = "Copy failed: the text is selected, press Ctrl+C";

async function conversation(message: string, agentId?: string) {
  const agent = agentId ?? (await management.createAgent(ECHO_AGENT(`defects ${Date.now()}`))).agent_id;
  const key = await management.mintKey();
  const res = await call("POST", webhook(agent), { auth: key, body: { message } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { agentId: agent, sessionId: res.body.session_id as string, key };
}

/**
 * The clipboard refuses. On plain http at an address that is not local the page is not a secure
 * context and has no `navigator.clipboard` at all; where it has one, a denied permission rejects the
 * write. Headless Chromium at 127.0.0.1 is a secure context that grants the write, so the page is
 * given each refusal before its scripts run.
 */
async function refuseClipboard(page: Page, how: "insecure" | "denied") {
  await page.addInitScript((mode) => {
    if (mode === "insecure") Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined });
    else
      navigator.clipboard.writeText = () =>
        Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
  }, how);
}

const selection = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (el instanceof HTMLInputElement) return el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0);
    return window.getSelection()?.toString() ?? "";
  });

test("a refused clipboard never says Copied: the id is selected and the page says to press Ctrl+C", async ({ as }) => {
  const { sessionId } = await conversation("copy me");
  const page = await as("adminA");
  await refuseClipboard(page, "insecure");
  await page.goto(`/sessions/${sessionId}`);
  await page.getByRole("button", { name: "Copy session id" }).click();
  await expect(page.getByRole("status").filter({ hasText: COPY_FAILED })).toBeVisible();
  await expect(page.getByRole("button", { name: "Copied" })).toHaveCount(0);
  // The whole id, selected: Ctrl+C copies it.
  await expect.poll(() => selection(page)).toBe(sessionId);
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "defects-copy-failed");

  // A denied permission: the same.
  const denied = await as("adminA");
  await refuseClipboard(denied, "denied");
  await denied.goto(`/sessions/${sessionId}`);
  await denied.getByRole("button", { name: "Copy session id" }).click();
  await expect(denied.getByRole("status").filter({ hasText: COPY_FAILED })).toBeVisible();
  await expect.poll(() => selection(denied)).toBe(sessionId);

  // Where the clipboard works, the button says so and the clipboard holds the full id.
  const ok = await as("adminA");
  await ok.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: ui().baseUrl });
  await ok.goto(`/sessions/${sessionId}`);
  await ok.getByRole("button", { name: "Copy session id" }).click();
  await expect(ok.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await ok.evaluate(() => navigator.clipboard.readText())).toBe(sessionId);
  await expect(ok.getByText(COPY_FAILED)).toHaveCount(0);
});

test("a form's errors read as sentences in plain words, and a corrected field clears its error", async ({ as }) => {
  const page = await as("adminA");
  await page.goto("/settings/secrets");
  await page
    .getByRole("button", { name: /Add (your first )?secret/ })
    .first()
    .click();
  const add = page.getByRole("dialog", { name: "Add a secret" });
  await add.getByLabel("Name").fill("not a name!");
  await add.getByLabel("Value").fill("   ");
  await add.getByRole("button", { name: "Save secret" }).click();
  const alerts = add.getByRole("alert");
  const nameError = alerts.filter({ hasText: /^Name must be 1-64 letters, digits/ });
  await expect(nameError).toBeVisible();
  await expect(add).not.toContainText(/Too small|expected string|Invalid input/);
  await expect(add.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);
  await screenshots(page, "defects-form-errors");

  // Correcting the name clears its error at once, before the form is sent again.
  await add.getByLabel("Name").fill(`fixed-${Date.now().toString(36)}`);
  await expect(nameError).toHaveCount(0);
  await expect(add.getByLabel("Name")).not.toHaveAttribute("aria-invalid", "true");
  // Sent again, the value's error reads after its label; typing a value clears it.
  await add.getByRole("button", { name: "Save secret" }).click();
  const valueError = alerts.filter({ hasText: "Value must not be empty." });
  await expect(valueError).toBeVisible();
  await add.getByLabel("Value").fill("sk-a-real-value-0123456789");
  await expect(valueError).toHaveCount(0);
  await expect(alerts).toHaveCount(0);
});

test("two sessions made together show different short ids (prefix and last characters), the full id on hover", async ({
  as,
}) => {
  const first = await conversation("one");
  const second = await conversation("two", first.agentId);
  const ids = [first.sessionId, second.sessionId];
  const page = await as("adminA");
  await page.goto(`/sessions?agent_id=${first.agentId}`);
  const shown: string[] = [];
  for (const id of ids) {
    const link = page.locator(`tr[data-session-id="${id}"] a`).first();
    await expect(link).toHaveText(`sess_…${id.slice(-6)}`);
    await expect(link).toHaveAttribute("title", id);
    shown.push((await link.textContent())!);
  }
  expect(shown[0]).not.toBe(shown[1]);
  await page.goto(`/sessions/${ids[1]}`);
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toContainText(`sess_…${ids[1]!.slice(-6)}`);
  await expect(heading.getByTitle(ids[1]!)).toBeVisible();
});

test("an unknown session id says the session is not found, with the way back", async ({ as }) => {
  const page = await as("adminA");
  await page.goto("/sessions/sess_00000000doesnotexist");
  await expect(page.getByRole("heading", { name: "Session not found" })).toBeVisible();
  await expect(page.getByText("There is no session sess_00000000doesnotexist in this organization.")).toBeVisible();
  await expect(page.getByRole("link", { name: "All sessions" })).toHaveAttribute("href", "/sessions");
  await expect(page.getByText("could not be loaded")).toHaveCount(0);
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "defects-session-not-found");
});

test("/favicon.ico answers with an icon, signed in or not", async ({ as }) => {
  const anonymous = await fetch(`${ui().baseUrl}/favicon.ico`);
  expect(anonymous.status).toBe(200);
  expect(anonymous.headers.get("content-type")).toMatch(/image\//);
  const page = await as("adminA");
  await page.goto("/");
  const icons = await page.locator('link[rel~="icon"]').evaluateAll((els) => els.map((e) => e.getAttribute("href")));
  expect(icons.some((h) => h?.startsWith("/favicon.ico"))).toBe(true);
});

test("a 200 KB message shows collapsed with 'Show all (200 KB)' and expands in place", async ({ as }) => {
  const big = "0123456789 abcdefghij ".repeat(10_000).slice(0, 200_000);
  const { sessionId } = await conversation(big);
  const page = await as("adminA");
  // The page notes when the collapsed message first appears; the browser's resource timing says
  // when the messages' answer had arrived: the difference is parsing and rendering.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector("[data-collapsed]")) return;
      (window as unknown as { collapsedAt: number }).collapsedAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`/sessions/${sessionId}`);
  const user = page.getByRole("article", { name: "User message" });
  const text = user.getByTestId("message-text");
  await expect(text).toHaveAttribute("data-collapsed", "true");
  const timing = await page.evaluate(() => {
    const answer = performance
      .getEntriesByType("resource")
      .find((e) => e.name.includes("/messages")) as PerformanceResourceTiming;
    return { answered: answer.responseEnd, shown: (window as unknown as { collapsedAt: number }).collapsedAt };
  });
  console.log(
    `[bench] thread with two 200 KB messages: shown ${Math.round(timing.shown)} ms after navigation, ${Math.round(timing.shown - timing.answered)} ms after the messages' answer arrived`,
  );
  expect((await text.textContent())!.length).toBe(4_001);
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "defects-long-message");

  const expand = user.getByRole("button", { name: "Show all (200 KB)" });
  const ms = await expand.evaluate(async (button) => {
    const t0 = performance.now();
    (button as HTMLButtonElement).click();
    // Two frames: React has committed the full text and the browser has laid it out and painted.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
  });
  console.log(`[bench] expanding a 200 KB message: ${Math.round(ms)} ms to the painted frame`);
  await expect(text).not.toHaveAttribute("data-collapsed", "true");
  expect((await text.textContent())!.length).toBe(200_000);
  await expect(user.getByRole("button", { name: "Show less" })).toBeVisible();
  // The assistant's echo of it stays collapsed.
  await expect(page.getByRole("article", { name: "Assistant message" }).getByTestId("message-text")).toHaveAttribute(
    "data-collapsed",
    "true",
  );
});

test("the test console refuses a message over the API's body limit before sending it", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT(`defects limit ${Date.now()}`));
  const page = await as("adminA");
  let sent = 0;
  page.on("request", (r) => {
    if (r.url().includes(`/agents/${agent.agent_id}/chat`)) sent++;
  });
  await page.goto(`/agents/${agent.agent_id}`);
  const input = page.getByLabel("Message", { exact: true });
  await input.fill("x".repeat(1024 * 1024 + 10));
  await page.getByRole("button", { name: "Send" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "The message is too large to send" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("at most 1,048,576 bytes (1 MiB)");
  expect(sent).toBe(0);
  // The text is kept to shorten; shortened, it is sent.
  await input.fill("short enough");
  await expect(alert).toHaveCount(0);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("chat-reply")).toContainText("short enough");
  expect(sent).toBe(1);
  await input.fill("y".repeat(1024 * 1024 + 10));
  await page.getByRole("button", { name: "Send" }).click();
  await expect(alert).toBeVisible();
  await expectAccessible(page);
  // The viewport only: a full-page capture of a 1 MiB text area takes longer than a screenshot may.
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await alert.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: `test-results/screenshots/defects-over-limit-${width}x${height}.png`,
      timeout: 60_000,
    });
  }
});

test("the run test console refuses inputs over the API's body limit before starting a run", async ({ as }) => {
  const agent = await management.createAgent(ROWS_WORKFLOW_AGENT(`defects run limit ${Date.now()}`));
  const page = await as("adminA");
  let sent = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes(`/agents/${agent.agent_id}/runs`)) sent++;
  });
  await page.goto(`/agents/${agent.agent_id}`);
  const editor = page.getByLabel("Inputs (JSON)");
  await editor.fill(JSON.stringify({ rows: ["z".repeat(1024 * 1024)] }));
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page.getByText("The inputs are too large to send")).toBeVisible();
  await expect(page.getByText("at most 1,048,576 bytes (1 MiB)")).toBeVisible();
  expect(sent).toBe(0);
});
