// The header search and the case timeline (docs/console.md, Search; Case timeline): `/` focuses the
// box, an exact id opens its object, words show results grouped by kind, an end user's timeline
// at both sizes, accessible.
import { call, ECHO_AGENT, expect, expectAccessible, expectFitsPhone, management, screenshots, test } from "./fixtures";

const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const WORD = `walrus${tag}`;

/** A conversation of a new end user (an email, as many callers use), with a word of its own. */
async function conversation(user: string) {
  const agent = await management.createAgent(ECHO_AGENT(`search ${tag}`));
  const key = await management.mintKey();
  const res = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
    auth: key,
    body: { message: `my ${WORD} order is late`, user_id: user, metadata: { order_id: `o-${tag}` } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { sessionId: res.body.session_id as string };
}

test("/ focuses the search box, an exact id opens its object, words show groups", async ({ as }) => {
  const USER = `customer-${tag}@example.com`;
  const { sessionId } = await conversation(USER);
  const page = await as("adminA");
  await page.goto("/");
  const box = page.getByRole("searchbox", { name: /Search/ });
  await page.locator("body").press("/");
  await expect(box).toBeFocused();
  await box.fill(sessionId);
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}$`));

  // Typing "/" inside the box is text, not the shortcut.
  await box.fill(`${WORD}/`);
  await expect(box).toHaveValue(`${WORD}/`);
  await box.fill(WORD);
  await box.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=/);
  const messages = page.getByRole("list", { name: "Messages" });
  await expect(messages.getByRole("link").first()).toBeVisible();
  await expect(messages).toContainText(WORD);
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "search-results");

  await page.goto(`/search?q=${encodeURIComponent(USER)}`);
  await page.getByRole("link", { name: "Open the case timeline" }).click();
  await expect(page).toHaveURL(/\/users\//);
  await expect(page.getByRole("heading", { name: new RegExp(USER) })).toBeVisible();
});

test("the case timeline: an end user's records newest first, reached from the session page, exportable", async ({
  as,
}) => {
  const USER = `other-${tag}@example.com`;
  const { sessionId } = await conversation(USER);
  const page = await as("adminA");
  await page.goto(`/sessions/${sessionId}`);
  await page.getByRole("link", { name: new RegExp(USER) }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${encodeURIComponent(USER)}`));
  const timeline = page.getByRole("list", { name: "Timeline, newest first" });
  // The session, the key that started it, its message and the reply.
  await expect(timeline.getByRole("listitem")).toHaveCount(4);
  await expect(timeline).toContainText("Session started");
  await expect(timeline).toContainText(`started ${sessionId}`);
  await expect(timeline).toContainText(WORD);
  const exportLink = page.getByRole("link", { name: "Export", exact: true });
  await expect(exportLink).toHaveAttribute("href", `/exports?kind=user_timeline&user_id=${encodeURIComponent(USER)}`);
  await expectAccessible(page);
  await expectFitsPhone(page);
  await screenshots(page, "user-timeline");

  // Another organization's admin sees nothing of this user.
  const other = await as("adminB");
  await other.goto(`/users/${encodeURIComponent(USER)}`);
  await expect(other.getByText("Nothing about this end user")).toBeVisible();
});
