// The browser's client for /api/console: JSON in and out, errors as ConsoleApiError carrying the
// envelope's code, message, request id and details (field errors).
export class ConsoleApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** Field errors of an invalid_request, by field path (e.g. `workflow.steps.2.when`). */
  get fields(): Record<string, string> {
    const list = (this.details?.fields ?? []) as { field: string; message: string }[];
    return Object.fromEntries(list.map((f) => [f.field, f.message]));
  }
}

/**
 * Set once the browser signs out: requests still in flight then meet a session that has ended on
 * the server (401), and must not send the page to /login?next=… instead of where sign-out goes.
 */
let signingOut = false;

export async function signOutAndLeave(path: "/auth/sign-out" | "/auth/sign-out-everywhere") {
  signingOut = true;
  await post(path).catch(() => {});
  window.location.assign("/login");
}

export async function api<T = unknown>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  const res = await fetch(`/api/console${path}`, {
    ...rest,
    headers: { ...(json !== undefined ? { "content-type": "application/json" } : {}), ...rest.headers },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
    credentials: "same-origin",
    cache: "no-store",
  });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const e = (
      body as { error?: { code?: string; message?: string; request_id?: string; details?: Record<string, unknown> } }
    )?.error;
    if (res.status === 401 && e?.code === "unauthorized" && typeof window !== "undefined" && !signingOut) {
      window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    }
    throw new ConsoleApiError(
      res.status,
      e?.code ?? "http_error",
      e?.message ?? `The server answered ${res.status}.`,
      e?.request_id ?? res.headers.get("x-request-id") ?? undefined,
      e?.details,
    );
  }
  return body as T;
}

export const post = <T = unknown>(path: string, json?: unknown) => api<T>(path, { method: "POST", json: json ?? {} });
export const patch = <T = unknown>(path: string, json: unknown) => api<T>(path, { method: "PATCH", json });
export const del = <T = unknown>(path: string) => api<T>(path, { method: "DELETE" });
