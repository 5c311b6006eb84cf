// The conformance checks of e2e/api/openapi.test.ts: the document the running server serves at
// /api/openapi.json, compiled with ajv (JSON Schema 2020-12); `conform` holds a real answer to it
// and records it for the suite's coverage test; the key, agents and paths the suite calls; whether
// the document's schemas call a request body or query value valid.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { expect } from "vitest";
import type { buildOpenApiDocument } from "../../lib/openapi/document";
import { call, createAgent, ctx, ECHO_AGENT, mintKey, type ApiResponse } from "./helpers";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

export type Doc = ReturnType<typeof buildOpenApiDocument>;
export let doc: Doc;
let ajv: Ajv2020;
const validators = new Map<string, ValidateFunction>();
/** `METHOD path status` of every answer checked. */
export const checked = new Set<string>();

export const esc = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
const resolve = (ref: string): any =>
  ref
    .slice(2)
    .split("/")
    .reduce((o: any, k) => o[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);

/** The compiled schema of a JSON answer, by its JSON pointer in the document. */
export function validatorAt(pointer: string): ValidateFunction {
  const key = `${pointer}/content/application~1json/schema`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.getSchema(`openapi.json${key}`)!;
    expect(validate, key).toBeDefined();
    validators.set(key, validate);
  }
  return validate;
}

/** Asserts that `res`, the answer to `method` on the path `template`, is what the document says. */
export function conform(method: string, template: string, res: ApiResponse) {
  const op = doc.paths[template]?.[method.toLowerCase()] as any;
  expect(op, `${method} ${template} is in the document`).toBeDefined();
  let pointer = `#/paths/${esc(template)}/${method.toLowerCase()}/responses/${res.status}`;
  let response = op.responses[String(res.status)];
  expect(
    response,
    `${method} ${template} answered ${res.status}, which the document does not list: ${res.text}`,
  ).toBeDefined();
  if (response.$ref) {
    pointer = response.$ref;
    response = resolve(response.$ref);
  }
  expect(res.headers.get("x-request-id"), `${method} ${template} ${res.status}: X-Request-Id`).toMatch(/^req_/);
  for (const [name, h] of Object.entries<any>(response.headers ?? {})) {
    const spec = h.$ref ? resolve(h.$ref) : h;
    if (spec.required) expect(res.headers.get(name), `${method} ${template} ${res.status}: ${name}`).not.toBeNull();
  }
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
  if (type === "application/json" && method.toUpperCase() !== "HEAD") {
    const media = response.content?.["application/json"];
    expect(media, `${method} ${template} ${res.status}: a JSON body the document does not describe`).toBeDefined();
    const validate = validatorAt(pointer);
    const valid = validate(res.body);
    expect(valid, `${method} ${template} ${res.status}: ${JSON.stringify(validate.errors)}\n${res.text}`).toBe(true);
  } else if (res.text) {
    // Not JSON: the document names the media type (tus's text/plain), or takes any (downloads).
    const media = Object.keys(response.content ?? {}).map((m) => m.split(";")[0]!.trim());
    expect(media.includes(type) || media.includes("*/*"), `${method} ${template} ${res.status}: ${type}`).toBe(true);
  }
  checked.add(`${method.toUpperCase()} ${template} ${res.status}`);
  return res;
}

export let key: string;
export const agents = {} as Record<"echo" | "failing" | "workflow" | "other", string>;
export const PUBLIC = {
  trigger: "/api/agents/webhook/{agent_id}",
  upload: "/api/agents/{agent_id}/upload",
  tus: "/api/agents/{agent_id}/upload/tus",
  tusUpload: "/api/agents/{agent_id}/upload/tus/{upload_id}",
  sessions: "/api/agents/{agent_id}/sessions",
  session: "/api/agents/{agent_id}/sessions/{session_id}",
  messages: "/api/agents/{agent_id}/sessions/{session_id}/messages",
  message: "/api/agents/{agent_id}/sessions/{session_id}/messages/{message_id}",
  runs: "/api/agents/{agent_id}/runs",
  run: "/api/agents/{agent_id}/runs/{run_id}",
  approvals: "/api/agents/{agent_id}/runs/{run_id}/approvals",
  resolve: "/api/agents/{agent_id}/runs/{run_id}/approvals/resolve",
  workflowTrigger: "/api/workflows/{agent_id}/trigger",
};

export const REVIEW_WORKFLOW = {
  name: "openapi review",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "big", type: "review", when: "item.n > 1", message: "large" }],
    output: { filename: "rows.csv", format: "csv" },
  },
};

/** A run of it waits two minutes: long enough to pause, resume and cancel. */
export const SLOW_WORKFLOW = {
  name: "openapi slow",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: { inputs: {}, steps: [{ id: "hold", type: "wait", ms: 120_000 }] },
};

/** A run of it fails at once (a fatal fail step on its only item): one that retry accepts. */
export const FATAL_WORKFLOW = {
  name: "openapi fatal",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: { inputs: {}, steps: [{ id: "boom", type: "fail", when: "true", fatal: true }] },
};

export async function waitForRun(agent: string, runId: string, status: string) {
  for (let i = 0; i < 100; i++) {
    const res = await call("GET", `/api/agents/${agent}/runs/${runId}`, { auth: key, headers: { prefer: "wait=5" } });
    if (res.body.status === status) return conform("GET", PUBLIC.run, res);
  }
  throw new Error(`run ${runId} never became ${status}`);
}

/** Loads the document the server serves and compiles it; makes the key and the agents the suites call. */
export async function setUpConformance() {
  const res = await fetch(`${ctx().baseUrl}/api/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Doc;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat("binary", true);
  ajv.addSchema(doc, "openapi.json");
  const { orgA } = ctx();
  key = (await mintKey(orgA, ["agents:invoke"], "openapi conformance")).key;
  agents.echo = (await createAgent(orgA, ECHO_AGENT)).agent_id;
  agents.failing = (
    await createAgent(orgA, { name: "failing", kind: "conversational", runtime: { type: "echo", fail: "error" } })
  ).agent_id;
  agents.workflow = (await createAgent(orgA, REVIEW_WORKFLOW)).agent_id;
  agents.other = (await createAgent(ctx().orgB, ECHO_AGENT)).agent_id;
}

/** Whether the document's schema of `method template`'s JSON body accepts `body`. */
export function bodyValid(method: string, template: string, body: unknown): boolean {
  const pointer = `openapi.json#/paths/${esc(template)}/${method.toLowerCase()}/requestBody/content/application~1json/schema`;
  const validate = ajv.getSchema(pointer);
  expect(validate, pointer).toBeDefined();
  return validate!(body) as boolean;
}
/** Whether the document's schema of the query parameter `name` of `method template` accepts `value`. */
export function queryValid(method: string, template: string, name: string, value: string): boolean {
  const op = doc.paths[template]?.[method.toLowerCase()] as any;
  const param = (op.parameters as any[]).find((p) => p.in === "query" && p.name === name);
  expect(param, `${method} ${template} ?${name}`).toBeDefined();
  return ajv.validate(param.schema, value) as boolean;
}
/** The document and the server agree: valid and taken (not 400), or invalid and refused with 400. */
export function agree(valid: boolean, res: ApiResponse, what: string) {
  expect([what, valid, res.status === 400], res.text).toEqual([what, res.status !== 400, res.status === 400]);
}

/** The operations of the document that no answer checked by `conform` shows succeeding (2xx). */
export function operationsNeverSucceeded(): string[] {
  const operations = Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
  );
  return operations.filter((op) => ![...checked].some((c) => c.startsWith(`${op} 2`)));
}
