// Evaluations (docs/api.md, Evaluations) through the production server, as an admin's script and a
// support member see them: a dry run, an evaluation of the draft on real sessions with checks, its
// progress to the end, the cases with their diff, verdicts by support, cancel, isolation from what
// production reads (the agent's completion callbacks, its sessions, the usage figures but evaluation usage), and every
// refusal with its status, code and field. Every answer is checked against its contract (helpers.ts).
import http from "node:http";
import { describe, expect, it } from "vitest";
import { call, createAgent, ctx, expectError, mintKey, type ApiResponse } from "./helpers";

const fieldsOf = (res: ApiResponse) => res.body.error.details.fields.map((f: { field: string }) => f.field);

/** Counts the POSTs it receives (the agent's completion callbacks) and answers 200. */
async function startCounter() {
  let count = 0;
  const server = http.createServer((req, res) => {
    count++;
    req.resume();
    req.on("end", () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An echo agent of org A with a callback URL, three answered sessions, and a draft (version 2: the same echo, 5 ms slower). */
async function agentWithTraffic(callbackUrl: string) {
  const { orgA } = ctx();
  const agent = await createAgent(orgA, {
    name: "evaluated",
    kind: "conversational",
    runtime: { type: "echo" },
    callback_url: callbackUrl,
  });
  const key = (await mintKey(orgA)).key;
  for (const message of ["where is my order", "cancel it please", "thanks"]) {
    const res = await call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: key, body: { message } });
    expect(res.status, res.text).toBe(200);
  }
  const base = `/api/v1/organizations/${orgA.organization_id}/agents/${agent.agent_id}`;
  const draft = await call("PATCH", base, {
    auth: orgA.user_token,
    body: { runtime: { type: "echo", delay_ms: 5 }, base_version: 1 },
  });
  expect(draft.status, draft.text).toBe(200);
  const admin = (method: string, p: string, body?: unknown) =>
    call(method, `${base}${p}`, { auth: orgA.user_token, body });
  return { agentId: agent.agent_id, key, base, admin };
}

async function waitFinished(admin: (m: string, p: string) => Promise<ApiResponse>, id: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await admin("GET", `/evaluations/${id}`);
    expect(res.status, res.text).toBe(200);
    if (!["queued", "running"].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`evaluation ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("evaluations", () => {
  it("a dry run, then the draft replayed on real sessions beside what was recorded; nothing production reads changes", async () => {
    const receiver = await startCounter();
    try {
      const a = await agentWithTraffic(receiver.url);
      // The three replies' callbacks arrive; what the evaluation adds would arrive after them.
      const deadline = Date.now() + 20_000;
      while (receiver.count() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(receiver.count()).toBe(3);
      const usage = async () =>
        (
          await call(
            "GET",
            `/api/v1/organizations/${ctx().orgA.organization_id}/usage?group_by=agent&agent_id=${a.agentId}`,
            { auth: ctx().orgA.user_token },
          )
        ).body.totals;
      // Usage is added up in memory and flushed each second: the three triggers first.
      let usageBefore = await usage();
      while (usageBefore.replies_completed < 3 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        usageBefore = await usage();
      }
      expect(usageBefore.replies_completed).toBe(3);
      const publicSessions = () => call("GET", `/api/agents/${a.agentId}/sessions`, { auth: a.key });
      const before = await publicSessions();

      const body = {
        candidate: "draft",
        source: { kind: "sessions", limit: 10 },
        checks: [
          { kind: "expression", name: "echoes the question", expression: "$contains(output, input)" },
          { kind: "equals_baseline", name: "same as production" },
        ],
        budget: { max_tokens: 10_000 },
      };
      const dry = await a.admin("POST", "/evaluations", { ...body, dry_run: true });
      expect(dry.status, dry.text).toBe(200);
      expect(dry.body).toMatchObject({
        dry_run: true,
        candidate: { version: 2, draft: true },
        estimate: { cases: 3, model_calls: 3 },
      });
      expect((await a.admin("GET", "/evaluations")).body.evaluations).toEqual([]);

      const made = await a.admin("POST", "/evaluations", body);
      expect(made.status, made.text).toBe(201);
      const done = await waitFinished(a.admin, made.body.evaluation_id);
      expect(done).toMatchObject({
        status: "completed",
        progress: { total: 3, done: 3 },
        // The echo draft answers as production did: every case is unchanged and passes.
        counts: { passed: 3, failed: 0, errored: 0, skipped: 0, changed: 0 },
      });
      const cases = await a.admin("GET", `/evaluations/${made.body.evaluation_id}/cases`);
      expect(cases.body.cases.map((c: { input: string }) => c.input).sort()).toEqual([
        "cancel it please",
        "thanks",
        "where is my order",
      ]);
      expect(cases.body.cases[0].diff.every((p: { op: string }) => p.op === "equal")).toBe(true);

      // Support may read and judge, not start or cancel.
      const support = ctx().supportA.user_token;
      const caseId = cases.body.cases[0].case_id;
      const judged = await call("PUT", `${a.base}/evaluations/${made.body.evaluation_id}/cases/${caseId}/verdict`, {
        auth: support,
        body: { verdict: "same" },
      });
      expect(judged.status, judged.text).toBe(200);
      expect(judged.body).toMatchObject({ verdict: "same", verdict_by: "support-a@example.com" });
      expectError(await call("POST", `${a.base}/evaluations`, { auth: support, body }), 403, "forbidden");
      expect((await a.admin("GET", `/evaluations/${made.body.evaluation_id}`)).body.verdicts).toEqual({
        better: 0,
        same: 1,
        worse: 0,
      });

      // The cases as a JSON Lines export, with email addresses redacted.
      const org = `/api/v1/organizations/${ctx().orgA.organization_id}`;
      const auth = ctx().orgA.user_token;
      const missing = await call("POST", `${org}/exports`, { auth, body: { kind: "evaluation_cases" } });
      expectError(missing, 400, "invalid_request");
      expect(fieldsOf(missing)).toEqual(["filters.evaluation_id"]);
      const exported = await call("POST", `${org}/exports`, {
        auth,
        body: {
          kind: "evaluation_cases",
          format: "jsonl",
          filters: { evaluation_id: made.body.evaluation_id },
          redact: { emails: true },
        },
      });
      expect(exported.status, exported.text).toBe(201);
      let file = exported.body;
      while (file.status !== "succeeded" && Date.now() < deadline + 30_000) {
        await new Promise((r) => setTimeout(r, 100));
        file = (await call("GET", `${org}/exports/${file.export_id}`, { auth })).body;
      }
      expect(file).toMatchObject({ status: "succeeded", rows_written: 3, rows_estimated: 3 });
      const lines = (await (await fetch(file.download_url, { headers: { authorization: `Bearer ${auth}` } })).text())
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => [l.type, l.outcome, l.evaluation_id])).toEqual(
        Array(3).fill(["evaluation_case", "passed", made.body.evaluation_id]),
      );
      expect(lines.map((l) => l.input).sort()).toEqual(["cancel it please", "thanks", "where is my order"]);

      // Publishing the draft from its evaluation names it in the version's note; another version's evaluation is refused.
      const wrong = await a.admin("POST", "/publish", { evaluation_id: "eval_0VdXm5Qr7St8Uv9Wx0Yz1a" });
      expectError(wrong, 400, "invalid_request");
      expect(fieldsOf(wrong)).toEqual(["evaluation_id"]);
      const published = await a.admin("POST", "/publish", { note: "Faster", evaluation_id: made.body.evaluation_id });
      expect(published.status, published.text).toBe(200);
      expect((await a.admin("GET", "/versions/2")).body.note).toBe(`Faster (evaluation ${made.body.evaluation_id})`);

      // Isolation: no callback, no session, and no production usage from the replays: their cases, tokens
      // and cost are counted apart, as evaluation usage. Once it is there (flushed each second, with any
      // production figure a replay had recorded), and a second and a half (a callback is sent at once),
      // nothing else has moved.
      let after = await usage();
      while (after.evaluation_cases < 3 && Date.now() < deadline + 30_000) {
        await new Promise((r) => setTimeout(r, 100));
        after = await usage();
      }
      await new Promise((r) => setTimeout(r, 1_500));
      expect(receiver.count()).toBe(3);
      expect((await publicSessions()).body).toEqual(before.body);
      after = await usage();
      expect(usageBefore).toMatchObject({ evaluation_cases: 0, evaluation_tokens: 0, evaluation_cost: 0 });
      expect(after).toEqual({
        ...usageBefore,
        evaluation_cases: 3,
        evaluation_tokens: done.spent.tokens,
        evaluation_cost: expect.closeTo(done.spent.cost_usd, 6),
      });
    } finally {
      await receiver.close();
    }
  });

  it("cancels a running evaluation; a finished one answers 409", async () => {
    const receiver = await startCounter();
    try {
      const a = await agentWithTraffic(receiver.url);
      await a.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 20_000 }, base_version: 2 });
      const made = await a.admin("POST", "/evaluations", { source: { kind: "sessions" } });
      expect(made.status, made.text).toBe(201);
      const cancelled = await a.admin("POST", `/evaluations/${made.body.evaluation_id}/cancel`);
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.body).toMatchObject({ status: "cancelled", stop_reason: "cancelled" });
      expectError(await a.admin("POST", `/evaluations/${made.body.evaluation_id}/cancel`), 409, "evaluation_finished");
      // The case in flight (its candidate answers in 20 s) is dropped and skipped too, at once.
      const deadline = Date.now() + 15_000;
      let cases = (await a.admin("GET", `/evaluations/${made.body.evaluation_id}/cases`)).body.cases;
      while (cases.some((c: { status: string }) => c.status !== "done") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        cases = (await a.admin("GET", `/evaluations/${made.body.evaluation_id}/cases`)).body.cases;
      }
      expect(cases.map((c: { outcome: string; skip_reason: string }) => [c.outcome, c.skip_reason])).toEqual(
        Array(3).fill(["skipped", "cancelled"]),
      );
    } finally {
      await receiver.close();
    }
  });

  it("refuses bad requests with the field named, and another organization's evaluations", async () => {
    const receiver = await startCounter();
    try {
      const a = await agentWithTraffic(receiver.url);
      const refused = async (body: unknown, status: number, code: string, field?: string) => {
        const res = await a.admin("POST", "/evaluations", body);
        expectError(res, status, code);
        if (field) expect(fieldsOf(res)).toContain(field);
      };
      await refused({ source: { kind: "sessions", limit: 501 } }, 400, "invalid_request", "source.limit");
      await refused(
        { source: { kind: "sessions" }, budget: { max_cost_usd: 0 } },
        400,
        "invalid_request",
        "budget.max_cost_usd",
      );
      await refused(
        { source: { kind: "sessions" }, checks: [{ kind: "expression", name: "x", expression: "(" }] },
        400,
        "invalid_check",
        "checks[0].expression",
      );
      await refused(
        { source: { kind: "sessions" }, checks: [{ kind: "json_schema", schema: { type: "nope" } }] },
        400,
        "invalid_check",
        "checks[0].schema",
      );
      await refused({ source: { kind: "sessions", filters: { user_id: "nobody-at-all" } } }, 400, "empty_source");
      await refused({ source: { kind: "sessions" }, candidate: 99 }, 400, "invalid_agent_version", "candidate");
      await refused({ source: { kind: "runs" } }, 400, "invalid_request", "source.kind");
      await refused({ source: { kind: "sessions" }, surprise: true }, 400, "invalid_request");

      const made = await a.admin("POST", "/evaluations", { candidate: 1, source: { kind: "sessions" } });
      expect(made.status, made.text).toBe(201);
      const { orgA, orgB } = ctx();
      const foreign = `/api/v1/organizations/${orgB.organization_id}/agents/${a.agentId}/evaluations/${made.body.evaluation_id}`;
      expectError(await call("GET", foreign, { auth: orgB.user_token }), 404, "agent_not_found");
      const asB = `/api/v1/organizations/${orgA.organization_id}/agents/${a.agentId}/evaluations/${made.body.evaluation_id}`;
      expectError(await call("GET", asB, { auth: orgB.user_token }), 404, "organization_not_found");
      expectError(await a.admin("GET", "/evaluations/eval_unknown"), 404, "evaluation_not_found");
      expectError(
        await a.admin("GET", `/evaluations/${made.body.evaluation_id}/cases/evc_unknown`),
        404,
        "evaluation_case_not_found",
      );
      expectError(
        await a.admin("GET", `/evaluations/${made.body.evaluation_id}/cases?outcome=great`),
        400,
        "invalid_request",
      );
      expectError(
        await a.admin("GET", `/evaluations/${made.body.evaluation_id}/cases?cursor=bogus`),
        400,
        "invalid_request",
      );
      await waitFinished(a.admin, made.body.evaluation_id);
    } finally {
      await receiver.close();
    }
  });
});
