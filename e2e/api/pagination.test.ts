// Paging by cursor through real HTTP (docs/api.md, Paging): each list walked a few rows a page sees
// every row exactly once, in the order of one page holding all of them, with its filters; rows share
// instants (groups of 4 on one timestamp, walked 3 a page, so that pages end inside a group); forged
// cursors are 400 naming `cursor`; a cursor of another organization's list shows nothing of it.
// The rows are made through the API; their timestamps are then set by SQL while the server is
// stopped (the API gives no way to make two rows at one instant), and the server started again.
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_AGENT, SIMPLE_WORKFLOW } from "./helpers";
import { bootstrapOrg, ownServer, startServer, type DbTarget, type OwnServer } from "./server";

let own: OwnServer;
let orgB: { organization_id: string; user_token: string };
let keyA: string;
let keyB: string;
const agents = { conv: "", flow: "", convB: "", archived: [] as string[] };
let bigSession = "";

/** Statements with their parameters, on the stopped server's database (PGlite: one process at a time). */
async function runSql(target: DbTarget, statements: [string, unknown[]][]) {
  if (target.databaseUrl) {
    const c = new pg.Client({ connectionString: target.databaseUrl });
    await c.connect();
    try {
      for (const [sql, params] of statements) await c.query(sql, params);
    } finally {
      await c.end();
    }
    return;
  }
  const db = new PGlite(path.join(target.dataDir, "pglite"));
  try {
    for (const [sql, params] of statements) await db.query(sql, params);
  } finally {
    await db.close();
  }
}

/** Groups of 4 rows (in creation order) on one instant each, a second apart. */
const tied = (table: string, column: string, where: string, extra = "") => `
WITH r AS (SELECT id, (row_number() OVER (ORDER BY created_at, id) - 1)::int AS n FROM ${table} WHERE ${where})
UPDATE ${table} t SET ${column} = TIMESTAMP '2026-11-01 00:00:00' + (r.n / 4) * INTERVAL '1 second'${extra}
FROM r WHERE t.id = r.id`;

const get = (p: string, auth: string) => own.call("GET", p, { auth });

interface Page {
  ids: string[];
  /** The sort value of each row (its timestamp or name). */
  at: string[];
  next: string | null;
}

/** Walks a list from its first page, `limit` rows a page, following each page's cursor. */
async function walk(page: (cursor: string | null) => Promise<Page>) {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const p = await page(cursor);
    pages.push(p);
    cursor = p.next;
    expect(pages.length).toBeLessThan(200);
  } while (cursor);
  const ids = pages.flatMap((p) => p.ids);
  // Pages that end inside a group of rows on one instant: the tie-break on id decided where the next began.
  let splitTies = 0;
  for (let i = 1; i < pages.length; i++) {
    if (pages[i - 1]!.at.at(-1) === pages[i]!.at[0]) splitTies++;
  }
  return { ids, pages: pages.length, splitTies };
}

const q = (params: Record<string, string | null | undefined>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v != null) s.set(k, v);
  return `?${s}`;
};

/**
 * A list answering `{ [rowsKey]: [...], next_cursor }` (with exactly `keys` when given): each row's
 * `id` and `sort` value.
 */
const bodyPage =
  (
    path: string,
    auth: string,
    rows: { key: string; id: string; sort: string },
    params: Record<string, string>,
    keys?: string[],
  ) =>
  async (cursor: string | null): Promise<Page> => {
    const res = await get(`${path}${q({ ...params, cursor })}`, auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (keys) expect(Object.keys(res.body).sort()).toEqual(keys);
    // Every list of the organization API pages the same way: has_more says whether next_cursor leads on.
    if (path.startsWith("/api/v1/organizations/")) expect(res.body.has_more).toBe(res.body.next_cursor !== null);
    const list = res.body[rows.key] as Record<string, string>[];
    return { ids: list.map((r) => r[rows.id]!), at: list.map((r) => r[rows.sort]!), next: res.body.next_cursor };
  };

const sessionsPage = (agent: string, auth: string, params: Record<string, string>) =>
  bodyPage(
    `/api/agents/${agent}/sessions`,
    auth,
    { key: "sessions", id: "session_id", sort: "last_message_at" },
    params,
  );

const messagesPage = (params: Record<string, string>) =>
  bodyPage(
    `/api/agents/${agents.conv}/sessions/${bigSession}/messages`,
    keyA,
    { key: "messages", id: "message_id", sort: "created_at" },
    params,
  );

const runsPage =
  (params: Record<string, string>) =>
  async (cursor: string | null): Promise<Page> => {
    const res = await get(`/api/agents/${agents.flow}/runs${q({ ...params, cursor })}`, keyA);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const rows = res.body as { run_id: string; started_at: string }[];
    // A run's list item shows no creation time: the ties (set by SQL) are not visible here.
    return { ids: rows.map((r) => r.run_id), at: rows.map((r) => r.run_id), next: res.headers.get("next-cursor") };
  };

type Org = { organization_id: string; user_token: string };
/** A management list: its path, its rows (key, id, sort value), and every key of its body. */
const managementList =
  (path: string, rows: { key: string; id: string; sort: string }, keys: string[]) =>
  (org: Org, params: Record<string, string> = {}) =>
    bodyPage(`/api/v1/organizations/${org.organization_id}/${path}`, org.user_token, rows, params, keys);
const management = {
  agents: managementList("agents", { key: "agents", id: "agent_id", sort: "created_at" }, [
    "agents",
    "has_more",
    "next_cursor",
  ]),
  keys: managementList("access-keys", { key: "access_keys", id: "key_id", sort: "created_at" }, [
    "access_keys",
    "default_rate_limit_per_minute",
    "has_more",
    "next_cursor",
  ]),
  secrets: managementList("secrets", { key: "secrets", id: "name", sort: "name" }, [
    "has_more",
    "next_cursor",
    "secrets",
  ]),
};

/** The list in one page (no cursor): what a walk must see, in this order. */
const allOf = async (page: (cursor: string | null) => Promise<Page>) => {
  const first = await page(null);
  expect(first.next).toBeNull();
  return first.ids;
};

const expectWalk = async (
  small: (cursor: string | null) => Promise<Page>,
  whole: (cursor: string | null) => Promise<Page>,
  minRows: number,
) => {
  const expected = await allOf(whole);
  expect(expected.length).toBeGreaterThanOrEqual(minRows);
  const walked = await walk(small);
  expect(walked.ids).toEqual(expected);
  expect(new Set(walked.ids).size).toBe(walked.ids.length);
  return walked;
};

beforeAll(async () => {
  own = await ownServer("pagination");
  const orgA = own.org;
  keyA = await own.mintKey();
  agents.conv = await own.createAgent(ECHO_AGENT);
  agents.flow = await own.createAgent(SIMPLE_WORKFLOW);
  // 30 sessions of one exchange, and one of 12 exchanges (24 messages).
  for (let i = 0; i < 30; i++) {
    const res = await own.call("POST", `/api/agents/webhook/${agents.conv}`, {
      auth: keyA,
      body: { message: `s${i}`, user_id: `u${i}` },
    });
    expect(res.status).toBe(200);
  }
  for (let i = 0; i < 12; i++) {
    const res = await own.call("POST", `/api/agents/webhook/${agents.conv}`, {
      auth: keyA,
      body: { message: `m${i}`, ...(bigSession ? { session_id: bigSession } : {}) },
    });
    expect(res.status).toBe(200);
    bigSession = res.body.session_id;
  }
  for (let i = 0; i < 25; i++) {
    const res = await own.call("POST", `/api/agents/webhook/${agents.flow}`, { auth: keyA, body: { rows: [] } });
    expect(res.status).toBe(202);
  }
  // Agents (4 archived), keys and secrets of the management lists: 27 agents, 26 keys, 14 secrets.
  for (let i = 0; i < 25; i++) {
    const id = await own.createAgent({ ...ECHO_AGENT, name: `agent ${i}` });
    if (i % 8 === 0) agents.archived.push(id);
  }
  for (const id of agents.archived) {
    expect(
      (
        await own.call("DELETE", `/api/v1/organizations/${orgA.organization_id}/agents/${id}`, {
          auth: orgA.user_token,
        })
      ).status,
    ).toBe(200);
  }
  for (let i = 0; i < 25; i++) await own.mintKey();
  for (let i = 0; i < 14; i++) {
    const res = await own.call(
      "PUT",
      `/api/v1/organizations/${orgA.organization_id}/secrets/secret-${String(i).padStart(2, "0")}`,
      {
        auth: orgA.user_token,
        body: { value: `value-${i}-0123456789` },
      },
    );
    expect(res.status).toBe(201);
  }
  // Every run finished before the server stops (nothing of them is in flight while SQL writes).
  for (let tries = 0; ; tries++) {
    const runs = await get(`/api/agents/${agents.flow}/runs?limit=100`, keyA);
    if (runs.body.every((r: { status: string }) => r.status === "completed")) break;
    expect(tries).toBeLessThan(300);
    await new Promise((r) => setTimeout(r, 100));
  }

  await own.server.stop();
  orgB = await bootstrapOrg(own.target, "pagination-b", "pagination-b@example.com");
  const convOrg = [orgA.organization_id];
  await runSql(own.target, [
    [
      tied(
        "sessions",
        "last_message_at",
        "agent_id = $1",
        ", status = CASE WHEN r.n % 3 = 0 THEN 'closed' ELSE t.status END",
      ),
      [agents.conv],
    ],
    [tied("messages", "created_at", "session_id = $1"), [bigSession]],
    [
      tied("runs", "created_at", "agent_id = $1", ", status = CASE WHEN r.n % 3 = 0 THEN 'failed' ELSE t.status END"),
      [agents.flow],
    ],
    [tied("agents", "created_at", "organization_id = $1"), convOrg],
    [tied("access_keys", "created_at", "organization_id = $1"), convOrg],
    // 510 keys in organization B: more than the management lists' cap of 500.
    [
      `INSERT INTO access_keys (id, organization_id, name, key_hash, start, permissions, created_at)
       SELECT 'key_pg' || lpad(i::text, 6, '0'), $1, 'bulk ' || i, 'hash-pg-' || i, 'ak_bulk', ARRAY['agents:invoke'],
         TIMESTAMP '2026-11-02 00:00:00' + (i / 4) * INTERVAL '1 second'
       FROM generate_series(1, 510) i`,
      [orgB.organization_id],
    ],
  ]);
  own.server = await startServer(own.target, { SEED_DEMO: "false" }, own.server.port);

  const b = { auth: orgB.user_token };
  for (let i = 0; i < 3; i++) {
    const agentB = await own.call("POST", `/api/v1/organizations/${orgB.organization_id}/agents`, {
      ...b,
      body: ECHO_AGENT,
    });
    expect(agentB.status).toBe(201);
    agents.convB = agentB.body.agent_id;
  }
  const minted = await own.call("POST", `/api/v1/organizations/${orgB.organization_id}/access-keys`, {
    ...b,
    body: { name: "b", permissions: ["agents:invoke"] },
  });
  keyB = minted.body.key;
  for (let i = 0; i < 4; i++) {
    await own.call("POST", `/api/agents/webhook/${agents.convB}`, { auth: keyB, body: { message: `b${i}` } });
    await own.call("PUT", `/api/v1/organizations/${orgB.organization_id}/secrets/b-secret-${i}`, {
      ...b,
      body: { value: `b-value-${i}-0123456789` },
    });
  }
}, 300_000);

afterAll(async () => {
  await own?.dispose();
});

describe("public lists walked by cursor", () => {
  it("sessions: every session once, most recently active first, pages ending inside ties", async () => {
    const walked = await expectWalk(
      sessionsPage(agents.conv, keyA, { limit: "3" }),
      sessionsPage(agents.conv, keyA, { limit: "100" }),
      31,
    );
    expect(walked.pages).toBe(11);
    expect(walked.splitTies).toBeGreaterThan(0);
  });

  it("sessions: with status and since, the walk equals the filtered list", async () => {
    const closed = await expectWalk(
      sessionsPage(agents.conv, keyA, { limit: "3", status: "closed" }),
      sessionsPage(agents.conv, keyA, { limit: "100", status: "closed" }),
      11,
    );
    expect(closed.ids).toHaveLength(11); // n % 3 = 0 of 31
    const since = "2026-11-01T00:00:03Z"; // after the first 4 groups (16 sessions)
    const later = await expectWalk(
      sessionsPage(agents.conv, keyA, { limit: "2", since }),
      sessionsPage(agents.conv, keyA, { limit: "100", since }),
      15,
    );
    expect(later.ids).toHaveLength(15);
    const activeLater = await expectWalk(
      sessionsPage(agents.conv, keyA, { limit: "2", since, status: "active" }),
      sessionsPage(agents.conv, keyA, { limit: "100", since, status: "active" }),
      10,
    );
    expect(activeLater.ids).toHaveLength(10); // sessions 16-30 but the closed 18, 21, 24, 27, 30
  });

  it("messages: every message once, oldest first; with role; a cursor after an offset page continues it", async () => {
    const walked = await expectWalk(messagesPage({ limit: "3" }), messagesPage({ limit: "200" }), 24);
    expect(walked.splitTies).toBeGreaterThan(0);
    await expectWalk(messagesPage({ limit: "5", role: "user" }), messagesPage({ limit: "200", role: "user" }), 12);
    const all = await allOf(messagesPage({ limit: "200" }));
    const byOffset = await get(`/api/agents/${agents.conv}/sessions/${bigSession}/messages?limit=5&offset=10`, keyA);
    expect(byOffset.body.messages.map((m: { message_id: string }) => m.message_id)).toEqual(all.slice(10, 15));
    const next = await get(
      `/api/agents/${agents.conv}/sessions/${bigSession}/messages?limit=5&offset=0&cursor=${byOffset.body.next_cursor}`,
      keyA,
    );
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ limit: 5, offset: 0 });
    expect(next.body.messages.map((m: { message_id: string }) => m.message_id)).toEqual(all.slice(15, 20));
  });

  it("messages: a cursor with a non-zero offset is 400 invalid_request naming offset", async () => {
    const first = await get(`/api/agents/${agents.conv}/sessions/${bigSession}/messages?limit=5`, keyA);
    const res = await get(
      `/api/agents/${agents.conv}/sessions/${bigSession}/messages?offset=5&cursor=${first.body.next_cursor}`,
      keyA,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(["offset"]);
  });

  it("runs: every run once, newest first, the cursor in the Next-Cursor header; with status", async () => {
    const walked = await expectWalk(runsPage({ limit: "3" }), runsPage({ limit: "100" }), 25);
    expect(walked.pages).toBe(9);
    const failed = await expectWalk(
      runsPage({ limit: "2", status: "failed" }),
      runsPage({ limit: "100", status: "failed" }),
      9,
    );
    expect(failed.ids).toHaveLength(9); // n % 3 = 0 of 25
    const last = await get(`/api/agents/${agents.flow}/runs?limit=100`, keyA);
    expect(last.headers.has("next-cursor")).toBe(false);
  });
});

describe("management lists walked by cursor", () => {
  it("agents: newest first, archived ones only with include_archived, every agent once", async () => {
    const walked = await expectWalk(
      management.agents(own.org, { limit: "3" }),
      management.agents(own.org, { limit: "500" }),
      23,
    );
    expect(walked.ids).toHaveLength(23);
    expect(walked.ids.filter((id) => agents.archived.includes(id))).toEqual([]);
    expect(walked.splitTies).toBeGreaterThan(0);
    const withArchived = await expectWalk(
      management.agents(own.org, { limit: "3", include_archived: "true" }),
      management.agents(own.org, { limit: "500", include_archived: "true" }),
      27,
    );
    expect(withArchived.ids).toHaveLength(27);
    expect(withArchived.ids).toEqual(expect.arrayContaining(agents.archived));
  });

  it("access keys: newest first, every key once; 100 by default, a limit over 500 clamped to 500", async () => {
    const walked = await expectWalk(
      management.keys(own.org, { limit: "3" }),
      management.keys(own.org, { limit: "500" }),
      26,
    );
    expect(walked.splitTies).toBeGreaterThan(0);
    const first = await management.keys(orgB)(null);
    expect(first.ids).toHaveLength(100);
    expect(first.next).toEqual(expect.any(String));
    const capped = await management.keys(orgB, { limit: "100000" })(null);
    expect(capped.ids).toHaveLength(500);
    const rest = await management.keys(orgB, { limit: "500" })(capped.next);
    expect(rest.ids).toHaveLength(11); // 510 bulk keys and the one minted through the API
    expect(rest.next).toBeNull();
    expect(new Set([...capped.ids, ...rest.ids]).size).toBe(511);
  });

  it("secrets: by name, every secret once", async () => {
    const walked = await expectWalk(
      management.secrets(own.org, { limit: "3" }),
      management.secrets(own.org, { limit: "500" }),
      14,
    );
    expect(walked.ids).toEqual(Array.from({ length: 14 }, (_, i) => `secret-${String(i).padStart(2, "0")}`));
  });

  it("a limit that is not a positive integer is 400 invalid_request naming limit", async () => {
    for (const list of ["agents", "access-keys", "secrets"]) {
      const res = await get(`/api/v1/organizations/${own.org.organization_id}/${list}?limit=0`, own.org.user_token);
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(["limit"]);
    }
  });
});

describe("forged and foreign cursors", () => {
  const forged = [
    "not a cursor",
    Buffer.from('["yesterday","sess_1"]').toString("base64url"),
    Buffer.from('{"at":1}').toString("base64url"),
    Buffer.from('[12,"sess_1"]').toString("base64url"),
    "x".repeat(201),
  ];
  const lists = () => [
    [`/api/agents/${agents.conv}/sessions`, keyA],
    [`/api/agents/${agents.conv}/sessions/${bigSession}/messages`, keyA],
    [`/api/agents/${agents.flow}/runs`, keyA],
    [`/api/v1/organizations/${own.org.organization_id}/agents`, own.org.user_token],
    [`/api/v1/organizations/${own.org.organization_id}/access-keys`, own.org.user_token],
  ];

  it("a forged cursor is 400 invalid_request naming cursor on every list", async () => {
    for (const [list, auth] of lists()) {
      for (const cursor of forged) {
        const res = await get(`${list}?cursor=${encodeURIComponent(cursor)}`, auth!);
        expect({ list, cursor, status: res.status, code: res.body?.error?.code }).toEqual({
          list,
          cursor,
          status: 400,
          code: "invalid_request",
        });
        expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(["cursor"]);
      }
    }
    // Secrets are ordered by name: a cursor must carry a name.
    for (const cursor of [forged[0]!, forged[2]!, forged[3]!, forged[4]!]) {
      const res = await get(
        `/api/v1/organizations/${own.org.organization_id}/secrets?cursor=${encodeURIComponent(cursor)}`,
        own.org.user_token,
      );
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(["cursor"]);
    }
  });

  it("a cursor from another organization's list shows only this organization's rows", async () => {
    const sessionsA = await allOf(sessionsPage(agents.conv, keyA, { limit: "100" }));
    const sessionsB = await allOf(sessionsPage(agents.convB, keyB, { limit: "100" }));
    const cursorB = (await sessionsPage(agents.convB, keyB, { limit: "1" })(null)).next!;
    const seen = await sessionsPage(agents.conv, keyA, { limit: "100" })(cursorB);
    expect(seen.ids.length).toBeGreaterThan(0);
    expect(sessionsA).toEqual(expect.arrayContaining(seen.ids));
    expect(seen.ids.filter((id) => sessionsB.includes(id))).toEqual([]);
    // Org A's key with org B's agent is refused whatever the cursor.
    const res = await get(`/api/agents/${agents.convB}/sessions?cursor=${cursorB}`, keyA);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("agent_not_found");

    for (const list of ["agents", "keys", "secrets"] as const) {
      const own_ = await allOf(management[list](own.org, { limit: "500" }));
      const theirs = (await walk(management[list](orgB, { limit: "500" }))).ids;
      const cursor = (await management[list](orgB, { limit: "1" })(null)).next!;
      const shown = await management[list](own.org, { limit: "500" })(cursor);
      expect(own_).toEqual(expect.arrayContaining(shown.ids));
      expect(shown.ids.filter((id) => theirs.includes(id) && !own_.includes(id))).toEqual([]);
    }
  });
});
