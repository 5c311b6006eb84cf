// Webhooks in the console: the signing secret created and rotated (shown once), a delivery listed
// after a trigger with a callback URL to a receiver of the test's own, its request and attempts,
// redelivery, and a support member's read-only view.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { call, ECHO_AGENT, expect, expectAccessible, management, screenshots, test, ui } from "./fixtures";

/** A path of the organization API: Acme's (org A) unless another is named. */
const orgApi = (path: string, org: "orgA" | "orgB" = "orgA") =>
  `/api/v1/organizations/${ui()[org].organization_id}${path}`;

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A callback receiver on 127.0.0.1 that records every request and answers 200. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ received: received.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/agent`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let agentId: string;
let key: string;

test.beforeAll(async () => {
  receiver = await startReceiver();
  agentId = (await management.createAgent(ECHO_AGENT("Callback bot"))).agent_id;
  key = await management.mintKey("orgA", "webhooks-spec");
});

test.afterAll(async () => {
  await receiver.close();
});

/** A message with a callback URL; resolves with the callback request the receiver got for it. */
async function triggerWithCallback(message: string): Promise<Received> {
  const res = await call("POST", `/api/agents/webhook/${agentId}`, {
    auth: key,
    body: { message, callback_url: receiver.url },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const messageId: string = res.body.message_id;
  await expect
    .poll(() => receiver.received.filter((r) => r.body.includes(messageId)).length, { timeout: 30_000 })
    .toBe(1);
  return receiver.received.find((r) => r.body.includes(messageId))!;
}

/** Creates or rotates the secret from the page; returns the value the dialog showed once. */
async function newSecret(page: Page, expectConfirm: RegExp): Promise<string> {
  const panel = page.getByTestId("secret-panel");
  await panel.getByRole("button", { name: /^(Create|Rotate) secret$/ }).click();
  const confirm = page.getByRole("dialog", { name: /^(Create a|Rotate the) signing secret\?$/ });
  await expect(confirm).toContainText(expectConfirm);
  await confirm.getByRole("button", { name: /^(Create|Rotate) secret$/ }).click();
  const shown = page.getByRole("dialog", { name: "Copy your new signing secret" });
  await expect(shown).toContainText("This is the only time the secret is shown");
  await expect(shown.getByRole("button", { name: "Copy secret" })).toBeVisible();
  await expect(shown.getByLabel("Verification example")).toContainText("new Webhook(secret)");
  const secret = (await shown.getByTestId("signing-secret").textContent())!.trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return secret;
}

async function expectNoSideways(page: Page) {
  await page.setViewportSize({ width: 375, height: 812 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${page.url()} scrolls sideways on a phone`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("an admin rotates the secret (shown once), a signed delivery is listed, inspected and redelivered", async ({
  as,
}) => {
  const page = await as("adminA");
  await page.goto("/webhooks");
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  const panel = page.getByTestId("secret-panel");
  await expect(panel.getByTestId("secret-info")).toBeVisible();

  // Create the first secret when there is none, then rotate: the warning names the receivers.
  if (await panel.getByRole("button", { name: "Create secret" }).isVisible()) {
    await newSecret(page, /Receivers that verify callbacks need it/);
    await page.getByRole("button", { name: "I have stored it" }).click();
  }
  await expect(panel.getByRole("button", { name: "Rotate secret" })).toBeVisible();
  const secret = await newSecret(page, /every receiver that verifies callbacks must be updated/);
  await screenshots(page, "webhooks-secret-shown");
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(panel).toContainText(`…${secret.slice(-4)}`);

  // Shown once: after a reload only its last characters remain.
  await page.reload();
  await expect(panel).toContainText("Configured");
  await expect(panel).toContainText(`…${secret.slice(-4)}`);
  expect(await page.content()).not.toContain(secret);

  // A trigger with a callback URL: the receiver gets a request signed with the secret just shown.
  const got = await triggerWithCallback("ping for the console");
  const event = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as {
    type: string;
    data: { message_id: string; session_id: string };
  };
  expect(event.type).toBe("message.completed");
  const deliveryId = got.headers["webhook-id"] as string;

  // Listed with its event, status and attempts (the list refreshes itself while a delivery is pending).
  await page.reload();
  const row = page
    .getByRole("table", { name: "Deliveries" })
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: `message.completed, delivery ${deliveryId}` }) });
  await expect(row).toContainText("delivered");
  await expect(row).toContainText("Callback bot");
  // The message subject links to the message in its session's thread.
  const { message_id: messageId, session_id: sessionId } = event.data;
  await expect(row.getByRole("link", { name: `Message ${messageId} in session ${sessionId}` })).toHaveAttribute(
    "href",
    `/sessions/${sessionId}#${messageId}`,
  );
  await expect(row).toContainText("200");
  await expectAccessible(page);
  await expectNoSideways(page);
  await screenshots(page, "webhooks-admin");

  // The status filter keeps it under "delivered" and drops it under "failed".
  await page.getByLabel("Status").selectOption("failed");
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByRole("link", { name: `message.completed, delivery ${deliveryId}` })).toHaveCount(0);
  await page.getByLabel("Status").selectOption("delivered");
  await expect(page.getByRole("link", { name: `message.completed, delivery ${deliveryId}` })).toBeVisible();

  // The delivery: the request as sent and its one attempt.
  await page.getByRole("link", { name: `message.completed, delivery ${deliveryId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/webhooks/deliveries/${deliveryId}$`));
  await expect(page.getByTestId("delivery-status")).toContainText("delivered");
  await expect(page.getByTestId("request-url")).toHaveText(receiver.url);
  const headers = page.getByTestId("request-headers");
  await expect(headers).toContainText(`webhook-id${deliveryId}`);
  await expect(headers).toContainText("webhook-signature");
  await expect(page.getByTestId("request-body")).toContainText(`"message_id": "${event.data.message_id}"`);
  await expect(page.getByTestId("attempt-1")).toContainText("200");
  await expect(page.getByTestId("attempt-2")).toHaveCount(0);
  await expectAccessible(page);
  await expectNoSideways(page);
  await screenshots(page, "webhooks-delivery");

  // Redeliver: the receiver gets the same event again with the same webhook-id; a second attempt shows.
  await page.getByRole("button", { name: "Redeliver" }).click();
  await expect(page.getByText("Redelivery queued")).toBeVisible();
  await expect(page.getByTestId("attempt-2")).toContainText("200");
  await expect(page.getByTestId("delivery-status")).toContainText("delivered");
  const again = receiver.received.filter((r) => r.headers["webhook-id"] === deliveryId);
  expect(again).toHaveLength(2);
  expect(again[1]!.body).toBe(got.body);
  new Webhook(secret).verify(again[1]!.body, again[1]!.headers as Record<string, string>);

  // The subject's link: the thread opens at that message.
  await page.getByRole("link", { name: messageId }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}#${messageId}$`));
  await expect(page.locator(`article[id="${messageId}"]`)).toBeInViewport();
});

test("an admin sets an agent's default Callback URL: a trigger without one is delivered there", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT("Default callback bot"));
  const page = await as("adminA");
  await page.goto(`/agents/${agent.agent_id}?tab=settings`);
  const field = page.getByLabel("Callback URL (optional)");
  await expect(field).toHaveValue("");

  // Refused at the field, nothing saved.
  await field.fill("ftp://example.com/hook");
  await page.getByRole("button", { name: "Save and publish" }).click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(/http or https/).first()).toBeVisible();

  // Saved and published: triggers get it (a draft alone would not be served).
  const url = `${receiver.url}?from=agent-default`;
  await field.fill(url);
  await page.getByRole("button", { name: "Save and publish" }).click();
  await expect(page.getByText("Published version 2: new sessions and runs use it.")).toBeVisible();
  await expect(field).not.toHaveAttribute("aria-invalid", "true");
  await page.reload();
  await expect(page.getByLabel("Callback URL (optional)")).toHaveValue(url);
  await page.getByLabel("Callback URL (optional)").scrollIntoViewIfNeeded();
  await screenshots(page, "webhooks-agent-callback-url");

  const res = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: key, body: { message: "no url" } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await expect
    .poll(() => receiver.received.filter((r) => r.body.includes(res.body.message_id)).map((r) => r.path), {
      timeout: 30_000,
    })
    .toEqual(["/hooks/agent?from=agent-default"]);

  // Emptied, the default is removed.
  await page.getByLabel("Callback URL (optional)").fill("");
  await page.getByRole("button", { name: "Save and publish" }).click();
  await expect(page.getByText("Published version 3: new sessions and runs use it.")).toBeVisible();
  const saved = await call("GET", `/api/v1/organizations/${ui().orgA.organization_id}/agents/${agent.agent_id}`, {
    auth: ui().orgA.user_token,
  });
  expect(saved.body.callback_url).toBeNull();
});

test("a support member reads deliveries but cannot rotate or redeliver", async ({ as }) => {
  const got = await triggerWithCallback("ping for support");
  const deliveryId = got.headers["webhook-id"] as string;
  const page = await as("supportA");
  await page.goto("/webhooks");
  const panel = page.getByTestId("secret-panel");
  await expect(panel.getByText("You have read access.")).toBeVisible();
  await expect(page.getByRole("button", { name: /(Create|Rotate) secret/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: `message.completed, delivery ${deliveryId}` })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "webhooks-support");

  await page.goto(`/webhooks/deliveries/${deliveryId}`);
  await expect(page.getByTestId("attempt-1")).toBeVisible();
  await expect(page.getByRole("button", { name: "Redeliver" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "webhooks-delivery-support");

  // Hiding the buttons is not the protection: the API refuses both writes.
  for (const p of [
    `/api/v1/organizations/${ui().orgA.organization_id}/webhook-secret`,
    orgApi(`/deliveries/${deliveryId}/redeliver`),
  ]) {
    const res = await page.request.post(p, { headers: { origin: ui().baseUrl } });
    expect(res.status(), p).toBe(403);
    expect((await res.json()).error.code).toBe("forbidden");
  }
});

test("a callback to a refused address is a failed delivery, shown with the guard's error", async ({ as }) => {
  // Link-local (cloud metadata) addresses are refused even where private upstreams are allowed.
  const res = await call("POST", `/api/agents/webhook/${agentId}`, {
    auth: key,
    body: { message: "to the metadata service", callback_url: "http://169.254.169.254/latest/meta-data" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const page = await as("adminA");
  await page.goto("/webhooks?status=failed");
  const link = page.getByRole("link", { name: /^message\.completed, delivery dlv_/ }).first();
  await expect(link).toBeVisible();
  await link.click();
  await expect(page.getByTestId("delivery-status")).toContainText("failed");
  await expect(page.getByTestId("request-url")).toHaveText("http://169.254.169.254/latest/meta-data");
  await expect(page.getByTestId("request-body")).toContainText(res.body.message_id);
  await expect(page.getByTestId("attempt-1")).toContainText(/refused|not allowed|blocked/i);
  await expectAccessible(page);
  await screenshots(page, "webhooks-delivery-failed");
});

test("an organization without deliveries is told how to get them; an unknown delivery is not found", async ({ as }) => {
  const page = await as("adminB");
  await page.goto("/webhooks");
  await expect(page.getByRole("heading", { name: "No deliveries yet" })).toBeVisible();
  await expect(page.getByText(/callback_url/)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "webhooks-empty");
  await page.goto("/webhooks/deliveries/dlv_doesnotexist000000000000");
  await expect(page.getByRole("heading", { name: "Delivery not found" })).toBeVisible();
});
