// The dashboard's console API from a test: signing in (a session cookie), and calls that carry it
// with a same-origin Origin header as the browser would.
import { expect } from "vitest";
import { call, ctx, type ApiResponse } from "./helpers";

export const PASSWORD = "correct horse battery";

export interface ConsoleSession {
  cookie: string;
  call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
}

export async function signIn(email: string, password = PASSWORD): Promise<ConsoleSession> {
  const base = ctx().baseUrl;
  const res = await fetch(`${base}/api/console/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  return {
    cookie,
    call: (method, path, body, headers) => call(method, path, { body, headers: { cookie, origin: base, ...headers } }),
  };
}
