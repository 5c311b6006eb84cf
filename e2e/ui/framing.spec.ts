// Threat model row T-FRAME-1 (docs/security.md): a page of another origin (here another port of the
// same host) frames the signed-in console to lure the admin into clicking Revoke or Roll through it.
// The console's answers say `frame-ancestors 'none'` and `X-Frame-Options: DENY`: the frame stays blank.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, ui } from "./fixtures";

test("T-FRAME-1 a page on another port that frames the signed-in console gets a blank frame", async ({ as }) => {
  const target = `${ui().baseUrl}/keys`;
  const attacker = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><title>Win a prize</title><h1>Click the button</h1>
<iframe id="console" src="${target}" width="1200" height="700"></iframe>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  try {
    const page = await as("adminA");
    // Signed in: the console itself shows the Access Keys page and its buttons.
    await page.goto("/keys");
    await expect(page.getByRole("button", { name: "Mint key" }).first()).toBeVisible();

    const messages: string[] = [];
    page.on("console", (m) => messages.push(m.text()));
    const port = (attacker.address() as AddressInfo).port;
    await page.goto(`http://127.0.0.1:${port}/`);
    await expect(page.getByRole("heading", { name: "Click the button" })).toBeVisible();
    // The browser refuses the framed answer by its policy and shows nothing of the console.
    await expect.poll(() => messages.some((m) => /frame-ancestors 'none'|X-Frame-Options/.test(m))).toBe(true);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(frame).toBeDefined();
    const text = await frame!.evaluate(() => document.body?.innerText ?? "").catch(() => "");
    expect(text).not.toContain("Access Keys");
    expect(text).not.toContain("Mint key");
    await expect(page.frameLocator("#console").getByRole("button", { name: "Mint key" })).toHaveCount(0);
  } finally {
    await new Promise((resolve) => attacker.close(resolve));
  }
});

test("the console's pages and the API reference run under their policy without one violation", async ({ as }) => {
  const page = await as("adminA");
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/.test(m.text())) violations.push(m.text());
  });
  for (const path of ["/", "/keys", "/uploads", "/runs", "/docs/api"]) {
    const res = await page.goto(path);
    expect(res?.headers()["content-security-policy"], path).toMatch(/'nonce-[^']+'.*frame-ancestors 'none'/);
    await expect(page.getByRole("heading", { level: 1 }).first(), path).toBeVisible();
  }
  // Scripts ran: a dialog of the Access Keys page opens.
  await page.goto("/keys");
  await page.getByRole("button", { name: "Mint key" }).first().click();
  await expect(page.getByRole("dialog", { name: "Mint an Access Key" })).toBeVisible();
  expect(violations).toEqual([]);
});
