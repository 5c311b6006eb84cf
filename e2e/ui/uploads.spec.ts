// Resumable uploads from the dashboard: Uppy over tus on /uploads. The connection is cut at a
// fixed point (every PATCH from the third 5 MB piece on is refused) rather than after a timer, so
// what the test sees does not depend on how fast the machine uploads.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page, Request, Route } from "@playwright/test";
import { call, ECHO_AGENT, expect, expectAccessible, management, screenshots, test } from "./fixtures";

const MB = 1024 * 1024;
const CHUNK = 5 * MB;
const TUS = "**/upload/tus/**";

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "uploads-spec-"));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of random bytes (incompressible, like a real archive). */
function tempFile(name: string, size: number): string {
  const file = path.join(dir, name);
  writeFileSync(file, randomBytes(size));
  return file;
}

const isCreate = (r: Request) => r.method() === "POST" && new URL(r.url()).pathname.endsWith("/upload/tus");

/**
 * The browser's connection to the tus endpoint, seen and cut from inside the browser: every PATCH
 * passes here, so `sent` lists the offset of each piece that went through (in order) and `refused`
 * each one cut while `cutFrom` covered its offset. `restore()` brings the connection back.
 */
async function tusConnection(page: Page) {
  const conn = {
    creates: 0,
    cutFrom: Infinity,
    sent: [] as number[],
    refused: [] as number[],
    cut(from: number) {
      conn.cutFrom = from;
    },
    restore() {
      conn.cutFrom = Infinity;
    },
  };
  page.on("request", (r) => {
    if (isCreate(r)) conn.creates++;
  });
  await page.route(TUS, (route: Route) => {
    const r = route.request();
    if (r.method() === "PATCH") {
      const offset = Number(r.headers()["upload-offset"]);
      if (offset >= conn.cutFrom) {
        conn.refused.push(offset);
        return route.abort("internetdisconnected");
      }
      conn.sent.push(offset);
    }
    return route.continue();
  });
  return conn;
}

/** The server's view of an upload (Access Key of the same organization). */
async function serverOffset(uploadPath: string, key: string) {
  const res = await call("HEAD", uploadPath, { auth: key, headers: { "tus-resumable": "1.0.0" } });
  expect(res.status).toBe(200);
  return { offset: Number(res.headers.get("upload-offset")), fileId: res.headers.get("upload-file-id") };
}

/** Each 5 MB piece went through once, in order: nothing restarted from 0, nothing was sent twice. */
function expectEachPieceOnce(sent: number[], size: number) {
  const pieces = Array.from({ length: Math.ceil(size / CHUNK) }, (_, i) => i * CHUNK);
  expect(sent).toEqual(pieces);
  const bytes = sent.reduce((n, offset) => n + Math.min(CHUNK, size - offset), 0);
  expect(bytes).toBe(size);
}

async function pickFile(page: Page, file: string) {
  await page.getByTestId("uppy-dashboard").locator("input[type=file]").first().setInputFiles(file);
  await page.getByRole("button", { name: /^Upload 1 file/ }).click();
}

test("a 50 MB upload survives a cut connection, resumes where it stopped, and its fi_ id works in a trigger", async ({
  as,
}) => {
  test.setTimeout(240_000);
  const agent = await management.createAgent(ECHO_AGENT("Uploads echo"));
  const key = await management.mintKey("orgA", "uploads-spec");
  const size = 50 * MB;
  const file = tempFile("orders-50mb.bin", size);
  const page = await as("adminA");
  const conn = await tusConnection(page);
  const stopAt = 2 * CHUNK;
  conn.cut(stopAt);

  await page.goto("/uploads");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Uploads");
  await page.getByRole("combobox", { name: "Agent" }).selectOption(agent.agent_id);
  await expect(page).toHaveURL(new RegExp(`agent_id=${agent.agent_id}`));
  await expect(page.getByText("Upload a file above, then reference it in a trigger")).toBeVisible();

  const created = page.waitForResponse((r) => isCreate(r.request()));
  await pickFile(page, file);
  const location = (await created).headers()["location"]!;
  const uploadPath = new URL(location, page.url()).pathname;
  expect(uploadPath).toMatch(new RegExp(`^/api/agents/${agent.agent_id}/upload/tus/upl_`));

  // Cut after two pieces: the third is refused, and so is at least one automatic retry of it.
  await expect.poll(() => conn.refused.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  expect(conn.refused.every((o) => o === stopAt)).toBe(true);
  expect(await serverOffset(uploadPath, key)).toEqual({ offset: stopAt, fileId: null });
  await expect(page.getByTestId("finished-upload")).toHaveCount(0);

  // The connection comes back: the next retry continues the same upload from the server's offset.
  conn.restore();
  const row = page.getByTestId("finished-upload");
  await expect(row).toContainText("orders-50mb.bin", { timeout: 120_000 });
  const fileId = (await row.locator("code").textContent())!.trim();
  expect(fileId).toMatch(/^fi_/);
  await expect(row.getByRole("button", { name: "Copy file id" })).toBeVisible();

  expect(conn.creates).toBe(1);
  expectEachPieceOnce(conn.sent, size);
  expect(await serverOffset(uploadPath, key)).toEqual({ offset: size, fileId });
  const uploaded = await call("GET", uploadPath, { auth: key });
  expect(uploaded.body).toMatchObject({ file_id: fileId, size_bytes: size, filename: "orders-50mb.bin" });

  const listed = page.getByRole("table", { name: "Files" }).getByRole("row").filter({ hasText: fileId });
  await expect(listed).toContainText("orders-50mb.bin");
  await expect(listed).toContainText("50 MB");
  await expect(listed.getByRole("button", { name: "Copy" })).toBeVisible();

  const trigger = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
    auth: key,
    body: { message: "Please read the upload", attachments: [{ file_id: fileId }] },
  });
  expect(trigger.status, JSON.stringify(trigger.body)).toBe(200);
  expect(trigger.body.response).toBe("Echo: Please read the upload [attachments: orders-50mb.bin]");

  await expectAccessible(page);
  await screenshots(page, "uploads-finished");
});

/**
 * Every text of Uppy's status bar details ("10 MB of 12 MB · 3s left") that a frame painted, from the
 * page's first script on (a reload starts it again): what the person saw, frame by frame.
 */
async function recordStatusTexts(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __statusTexts: seen });
    const tick = () => {
      for (const el of document.querySelectorAll(".uppy-StatusBar-additionalInfo")) {
        const text = el.textContent ?? "";
        if (seen.at(-1) !== text) seen.push(text);
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}
const statusTexts = (page: Page) =>
  page.evaluate(() => (window as unknown as { __statusTexts: string[] }).__statusTexts);

test("pause and resume, then a reload: picking the same file again continues the unfinished upload", async ({ as }) => {
  test.setTimeout(180_000);
  const agent = await management.createAgent(ECHO_AGENT("Uploads reload"));
  const key = await management.mintKey("orgA", "uploads-reload");
  const size = 12 * MB;
  const file = tempFile("reload.bin", size);
  const page = await as("adminA");
  await recordStatusTexts(page);
  const conn = await tusConnection(page);
  const dashboard = page.getByTestId("uppy-dashboard");
  conn.cut(CHUNK);

  await page.goto(`/uploads?agent_id=${agent.agent_id}`);
  const created = page.waitForResponse((r) => isCreate(r.request()));
  await pickFile(page, file);
  const uploadPath = new URL((await created).headers()["location"]!, page.url()).pathname;
  await expect.poll(() => conn.refused.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);

  // Paused (no more retries), then resumed: it goes on from the server's offset.
  await dashboard.getByRole("button", { name: "Pause upload", exact: true }).click();
  await expect(dashboard.getByRole("button", { name: "Resume upload", exact: true })).toBeVisible();
  await expect(dashboard).toContainText("Paused");
  await expectAccessible(page);
  await screenshots(page, "uploads-paused");
  conn.cut(2 * CHUNK);
  await dashboard.getByRole("button", { name: "Resume upload", exact: true }).click();
  await expect.poll(() => conn.refused.includes(2 * CHUNK), { timeout: 60_000 }).toBe(true);
  expect(await serverOffset(uploadPath, key)).toEqual({ offset: 2 * CHUNK, fileId: null });

  // Reloaded mid-upload: tus finds the upload by the file's fingerprint and continues it.
  await page.reload();
  conn.restore();
  await pickFile(page, file);
  await expect(page.getByTestId("finished-upload")).toContainText("reload.bin", { timeout: 60_000 });
  // The resumed upload never claimed "0s left" with megabytes still to send.
  const texts = await statusTexts(page);
  expect(texts.filter((t) => /\b0s left/.test(t))).toEqual([]);

  expect(conn.creates, "no second upload was created").toBe(1);
  expectEachPieceOnce(conn.sent, size);
  const { offset, fileId } = await serverOffset(uploadPath, key);
  expect(offset).toBe(size);
  await expect(page.getByTestId("finished-upload").locator("code")).toHaveText(fileId!);
  await expect(page.getByRole("table", { name: "Files" })).toContainText(fileId!);
});

test("support uploads too; an agent of another organization is not offered", async ({ as }) => {
  const agent = await management.createAgent(ECHO_AGENT("Uploads support"));
  await management.createAgent(ECHO_AGENT("Globex agent"), "orgB");
  const page = await as("supportA");
  await page.goto(`/uploads?agent_id=${agent.agent_id}`);
  await expect(page.getByRole("combobox", { name: "Agent" })).toHaveValue(agent.agent_id);
  await expect(page.getByText("Upload a file above, then reference it in a trigger")).toBeVisible();
  await expect(page.getByTestId("uppy-dashboard").getByRole("button", { name: "browse files" })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "uploads-empty");
  // Several files at once, each with its own progress, each its own fi_ file.
  await page
    .getByTestId("uppy-dashboard")
    .locator("input[type=file]")
    .first()
    .setInputFiles([tempFile("notes.txt", 1000), tempFile("tickets.csv", 3 * MB)]);
  await expect(page.getByTestId("uppy-dashboard").getByRole("listitem")).toHaveCount(2);
  await page.getByRole("button", { name: /^Upload 2 files/ }).click();
  await expect(page.getByTestId("finished-upload")).toHaveCount(2);
  const files = page.getByRole("table", { name: "Files" });
  await expect(files.getByRole("row").filter({ hasText: "notes.txt" })).toContainText("1000 bytes");
  await expect(files.getByRole("row").filter({ hasText: "tickets.csv" })).toContainText("3.0 MB");
  await expectAccessible(page);

  const other = await as("adminB");
  await other.goto(`/uploads?agent_id=${agent.agent_id}`);
  await expect(other.getByText("This agent is not in your organization")).toBeVisible();
  await expect(other.getByTestId("uppy-dashboard")).toHaveCount(0);
});
