// The invariants every fuzzed answer must meet (status, envelope, headers), and the server log
// checked for uncaught errors since a mark.
import { readFileSync, statSync } from "node:fs";
import { expect } from "vitest";
import { ERROR_STATUS } from "../../../lib/errors";
import { ctx } from "../../api/helpers";
import type { Answer } from "./http";
import type { Family } from "./targets";

/** Where the shared server's log stands now (bytes), to look only at what a suite adds to it. */
export const logMark = (): number => statSync(ctx().logFile).size;

/**
 * The server's log since `mark` holds no uncaught exception or unhandled rejection: an error no
 * handler answered is a defect even when the client got an answer (and it may have got none).
 */
export function expectNoUncaught(mark: number) {
  const added = readFileSync(ctx().logFile).subarray(mark).toString("utf8");
  const lines = added.split("\n").filter((l) => /uncaughtException|unhandledRejection/i.test(l));
  expect(lines, `uncaught errors in the server log (${ctx().logFile})`).toEqual([]);
}

const SNAKE = /^[a-z][a-z0-9_]*$/;

/** What every answer must be; `allow` names 5xx answers the API allows for this request. */
export function checkAnswer(
  req: { method: string; target: string; family?: Family; pattern?: string },
  res: Answer,
  opts: { allow5xx?: (res: Answer, body: any) => boolean } = {},
) {
  const where = `${req.method} ${req.target.slice(0, 200)} -> ${res.status} ${res.headers["content-type"] ?? ""} ${res.text.slice(0, 300)}`;
  let body: any;
  try {
    body = res.text ? JSON.parse(res.text) : undefined;
  } catch {
    body = undefined;
  }
  if (res.status >= 500) {
    if (!opts.allow5xx?.(res, body)) throw new Error(`5xx: ${where}`);
  }
  if (res.status < 400) return;
  // Dot segments can lead a path out of /api/ (`/api/../x`): the pages answer there, not the API.
  const pathname = new URL(req.target, "http://x").pathname;
  if (pathname !== "/api" && !pathname.startsWith("/api/")) return;
  // Auth.js answers its own endpoints (redirects, its JSON); they are no part of the API's contract.
  if (req.family === "auth_js" && !res.headers["x-request-id"]) return;
  const requestId = res.headers["x-request-id"];
  if (typeof requestId !== "string" || !requestId.startsWith("req_")) throw new Error(`no X-Request-Id: ${where}`);
  if (req.method === "HEAD") return; // no body on HEAD
  // The tus protocol's own refusals carry a short text/plain body, as tus servers do (docs/api.md).
  if (res.headers["tus-resumable"] && !String(res.headers["content-type"] ?? "").includes("json")) return;
  const e = body?.error;
  if (!e || typeof e !== "object") throw new Error(`no error envelope: ${where}`);
  if (typeof e.code !== "string" || !SNAKE.test(e.code)) throw new Error(`error.code not a snake_case code: ${where}`);
  if (!(e.code in ERROR_STATUS)) throw new Error(`error.code ${e.code} is not in lib/errors.ts: ${where}`);
  if ((ERROR_STATUS as Record<string, number>)[e.code] !== res.status)
    throw new Error(`error.code ${e.code} does not match the status: ${where}`);
  if (typeof e.message !== "string" || !e.message) throw new Error(`error.message empty: ${where}`);
  if (e.request_id !== requestId) throw new Error(`error.request_id is not X-Request-Id: ${where}`);
  if (e.details !== undefined && (typeof e.details !== "object" || e.details === null))
    throw new Error(`error.details not an object: ${where}`);
}
