// The browser's client for /api/console and for the organization API (/api/v1/organizations/{org_id},
// which the session cookie may call like a user token): JSON in and out, errors as ConsoleApiError carrying the
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
  await api(path, { method: "POST", json: {} }).catch(() => {});
  window.location.assign("/login");
}

/** The organization the console works in: set by the layout (components/console/me.tsx) before any page renders. */
let organizationId: string | undefined;

export const setConsoleOrganization = (id: string) => {
  organizationId = id;
};

/** A path of the organization API for the organization the console works in: `org("/secrets")`. */
export function org(path: string): string {
  if (!organizationId) throw new Error("org() before the console layout named the organization");
  return `/api/v1/organizations/${encodeURIComponent(organizationId)}${path}`;
}

/** `path`: under /api/console, or a whole API path (`org(...)`). */
export async function api<T = unknown>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  const res = await fetch(path.startsWith("/api/") ? path : `/api/console${path}`, {
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

/** A paged list whole: `page(cursor)` answers the page after `cursor` (null: the first), until `next_cursor` is null. The other fields are the first page's. */
export async function collectPages<P extends { next_cursor: string | null }>(
  page: (cursor: string | null) => Promise<P>,
  field: string,
): Promise<P> {
  let first: P | undefined;
  const items: unknown[] = [];
  let cursor: string | null = null;
  do {
    const next: P = await page(cursor);
    first ??= next;
    items.push(...((next as Record<string, unknown>)[field] as unknown[]));
    cursor = next.next_cursor;
  } while (cursor);
  return { ...first!, [field]: items, next_cursor: null } as P;
}
