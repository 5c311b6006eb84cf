// The typed client (lib/client: openapi-fetch over the types generated from the OpenAPI document)
// against the real server: the project's own API calls made the way an integrator makes them.
// trigger -> poll the reply; upload -> the file id in triggers; a workflow run -> poll -> controls.
import { beforeAll, describe, expect, it } from "vitest";
import { createClient, uploadFile, type ApiClient, type Schemas } from "../../lib/client";
import { ctx } from "./helpers";

let api: ApiClient;
let orgId: string;
const agents = {} as Record<"echo" | "orders" | "slow", string>;

const CSV = "id,qty,price\n1,2,3.5\n2,0,9\n3,4,0.25\n";

/** Polls a run with long polling (`Prefer: wait=N`) until `done` holds. */
async function pollRun(agentId: string, runId: string, done: (run: Schemas["RunRecord"]) => boolean) {
  for (let i = 0; i < 60; i++) {
    const { data, error } = await api.GET("/api/agents/{agent_id}/runs/{run_id}", {
      params: { path: { agent_id: agentId, run_id: runId }, header: { Prefer: "wait=5" } },
    });
    expect(error).toBeUndefined();
    if (done(data!)) return data!;
  }
  throw new Error(`run ${runId} did not get there`);
}

beforeAll(async () => {
  const { baseUrl, orgA } = ctx();
  orgId = orgA.organization_id;
  // The management API through the same client, with the user token.
  const admin = createClient({ baseUrl, userToken: orgA.user_token });
  const minted = await admin.POST("/api/v1/organizations/{org_id}/access-keys", {
    params: { path: { org_id: orgId } },
    body: { name: "typed client", permissions: ["agents:invoke"] },
  });
  expect(minted.response.status).toBe(201);
  api = createClient({ baseUrl, accessKey: minted.data!.key, userToken: orgA.user_token });
  const create = async (body: Schemas["CreateAgentBody"]) => {
    const { data, response } = await api.POST("/api/v1/organizations/{org_id}/agents", {
      params: { path: { org_id: orgId } },
      body,
    });
    expect(response.status).toBe(201);
    return data!.agent_id;
  };
  agents.echo = await create({ name: "client echo", kind: "conversational", runtime: { type: "echo" } });
  agents.orders = await create({
    name: "client orders",
    kind: "workflow",
    runtime: { type: "echo" },
    workflow: {
      inputs: { rows: { type: "file", required: true }, threshold: { type: "number" } },
      items: { from: "rows", format: "csv" },
      steps: [
        {
          id: "total",
          type: "transform",
          expression: "$merge([item, {'total': $number(item.qty) * $number(item.price)}])",
        },
        { id: "big", type: "review", when: "item.total > inputs.threshold", message: "large order" },
      ],
      output: { filename: "totals.csv", format: "csv" },
    },
  });
  agents.slow = await create({
    name: "client slow",
    kind: "workflow",
    runtime: { type: "echo" },
    workflow: { inputs: {}, steps: [{ id: "hold", type: "wait", ms: 120_000 }] },
  });
});

describe("typed client", () => {
  it("triggers a conversational agent asynchronously and polls the reply", async () => {
    const accepted = await api.POST("/api/agents/webhook/{agent_id}", {
      params: { path: { agent_id: agents.echo }, header: { Prefer: "respond-async" } },
      body: { message: "Where is my order?", user_id: "cust_42" },
    });
    expect(accepted.response.status).toBe(202);
    const body = accepted.data as Schemas["ConversationAccepted"];
    expect(body.status).toBe("processing");
    let reply: Schemas["MessageRecord"] | undefined;
    for (let i = 0; i < 20 && reply?.status !== "completed"; i++) {
      const { data } = await api.GET("/api/agents/{agent_id}/sessions/{session_id}/messages/{message_id}", {
        params: {
          path: { agent_id: agents.echo, session_id: body.session_id, message_id: body.message_id },
          header: { Prefer: "wait=5" },
        },
      });
      // JSON unless asked for `Accept: text/event-stream`: the answer is the message record.
      reply = data as Schemas["MessageRecord"] | undefined;
    }
    expect(reply).toMatchObject({ status: "completed", role: "assistant", content: "Echo: Where is my order?" });
    const { data: messages } = await api.GET("/api/agents/{agent_id}/sessions/{session_id}/messages", {
      params: { path: { agent_id: agents.echo, session_id: body.session_id }, query: { limit: 10 } },
    });
    expect(messages!.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("uploads a file (multipart through a bodySerializer) and uses its id in triggers", async () => {
    const uploaded = await uploadFile(api, agents.echo, new Blob([CSV], { type: "text/csv" }), "orders.csv");
    expect(uploaded.response.status).toBe(200);
    expect(uploaded.data).toEqual({
      file_id: expect.stringMatching(/^fi_[0-9a-f]{32}$/),
      size_bytes: CSV.length,
      content_type: "text/csv",
      filename: "orders.csv",
    });
    const { data, response } = await api.POST("/api/agents/webhook/{agent_id}", {
      params: { path: { agent_id: agents.echo } },
      body: { message: "Total these orders", attachments: [{ file_id: uploaded.data!.file_id }] },
    });
    expect(response.status).toBe(200);
    expect((data as Schemas["ConversationReply"]).response).toBe("Echo: Total these orders [attachments: orders.csv]");

    // A file is usable by the agent it was uploaded for only: the typed error says so.
    const other = await api.POST("/api/agents/webhook/{agent_id}", {
      params: { path: { agent_id: agents.orders } },
      body: { rows: { file_id: uploaded.data!.file_id } },
    });
    expect(other.response.status).toBe(400);
    expect(other.error?.error.code).toBe("file_not_found");
  });

  it("runs a workflow on an uploaded file, polls it, resolves its review, and downloads the output", async () => {
    const file = await uploadFile(api, agents.orders, new Blob([CSV], { type: "text/csv" }), "orders.csv");
    const triggered = await api.POST("/api/agents/webhook/{agent_id}", {
      params: { path: { agent_id: agents.orders } },
      body: { rows: { file_id: file.data!.file_id }, threshold: 5 },
    });
    expect(triggered.response.status).toBe(202);
    const { run_id: runId } = triggered.data as Schemas["RunAccepted"];
    const waiting = await pollRun(agents.orders, runId, (r) => r.status === "needs_review");
    expect(waiting.item_counts).toEqual({ completed: 2, failed: 0, needs_review: 1, total: 3 });

    const { data: approvals } = await api.GET("/api/agents/{agent_id}/runs/{run_id}/approvals", {
      params: { path: { agent_id: agents.orders, run_id: runId } },
    });
    expect(approvals).toHaveLength(1);
    const resolved = await api.POST("/api/agents/{agent_id}/runs/{run_id}/approvals/resolve", {
      params: { path: { agent_id: agents.orders, run_id: runId } },
      body: { exception_id: approvals![0]!.exception_id, resolution: "approved" },
    });
    expect(resolved.data).toMatchObject({ all_resolved: true, resumed: true });
    const done = await pollRun(agents.orders, runId, (r) => r.status === "completed");
    expect(done.summary).toMatchObject({ total_processed: 3, successful: 3 });
    const [output] = done.output_files;
    const download = await fetch(output!.url);
    expect(download.status).toBe(200);
    const header = (await download.text()).split("\n")[0]!.split(",");
    expect(header).toEqual(expect.arrayContaining(["id", "qty", "price", "total"]));

    const { data: runs } = await api.GET("/api/agents/{agent_id}/runs", {
      params: { path: { agent_id: agents.orders }, query: { status: "completed", limit: 5 } },
    });
    expect(runs!.map((r) => r.run_id)).toContain(runId);
  });

  it("controls a run (pause, resume, cancel) and reads a refused control as a typed error", async () => {
    const triggered = await api.POST("/api/agents/webhook/{agent_id}", {
      params: { path: { agent_id: agents.slow } },
      body: {},
    });
    const { run_id: runId } = triggered.data as Schemas["RunAccepted"];
    const path = { agent_id: agents.slow, run_id: runId };
    const paused = await api.POST("/api/agents/{agent_id}/runs/{run_id}/pause", {
      params: { path, query: { triggered_by: "typed-client" } },
    });
    expect(paused.data?.status).toBe("paused");
    const resumed = await api.POST("/api/agents/{agent_id}/runs/{run_id}/resume", { params: { path } });
    expect(resumed.data?.status).toBe("running");
    const cancelled = await api.POST("/api/agents/{agent_id}/runs/{run_id}/cancel", { params: { path } });
    expect(cancelled.data?.status).toBe("cancelled");
    expect(cancelled.data?.events.map((e) => e.action)).toEqual(expect.arrayContaining(["pause", "resume", "cancel"]));

    const refused = await api.POST("/api/agents/{agent_id}/runs/{run_id}/retry", { params: { path } });
    expect(refused.response.status).toBe(409);
    expect(refused.error?.error).toMatchObject({
      code: "invalid_state_transition",
      details: { current_status: "cancelled", allowed_actions: [] },
    });
    const missing = await api.GET("/api/agents/{agent_id}/runs/{run_id}", {
      params: { path: { agent_id: agents.slow, run_id: "run_unknown" } },
    });
    expect(missing.error?.error.code).toBe("run_not_found");
  });
});
