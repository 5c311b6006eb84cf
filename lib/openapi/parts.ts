// Fragments the route contracts' OpenAPI prose shares: header parameters and references, the error
// lists every route of a kind can answer, and the answer shapes written the same way.
import { z } from "zod";
import { TokenUsage, MessageListItem, SessionListItem } from "../conversations/schemas";
import { EchoRuntime, HttpRuntime, OpenAiRuntime, RuntimeConfig } from "../runtime/schema";
import { Approval, OutputFile, RunEvent, RunListItem, RunStatus } from "../runs/schemas";
import type { ControlAction } from "../runs/state";
import { JsonObject } from "../validate";
import type { AnswerDoc, OperationDoc } from "../http/contract";
import { Step, WorkflowDefinition } from "../workflow/schema";
import { header, type Components, type Json } from "./builder";
import * as ex from "./examples";

/** The optional precondition of a draft write (docs/api.md, Versions). */
export const IF_MATCH = {
  name: "If-Match",
  in: "header",
  required: false,
  description:
    "The agent's ETag as read (`\"v7\"`: its draft, else a rollout's new version, else its published version), instead of " +
    "`base_version`. A write whose ETag is stale answers `409 draft_conflict`.",
  schema: { type: "string" },
  example: '"v7"',
};

export const ref = (name: string) => ({ $ref: `#/components/${name}` });
export const IDEMPOTENCY_KEY = ref("parameters/Idempotency-Key");
export const WAIT = ref("parameters/Prefer-Wait");

/** Errors every Access Key route can answer before its own work (docs/api.md Rate limits). */
export const KEY_ERRORS = ["unauthorized", "forbidden", "agent_not_found", "rate_limited"] as const;
export const JSON_BODY_ERRORS = [
  "invalid_json",
  "invalid_request",
  "payload_too_large",
  "unsupported_media_type",
] as const;

/**
 * What every console route answers before its handler (lib/http/console.ts withConsole, the
 * wrapper of lib/http/handler.ts): no live session, a path or query that fails validation.
 */
export const CONSOLE_ERRORS = ["unauthorized", "invalid_request"] as const;
/** ... and a console write: a request from another origin. */
export const CONSOLE_WRITE_ERRORS = [...CONSOLE_ERRORS, "cross_site_request"] as const;
/** ... and a console write only an admin may make (support gets 403 forbidden). */
export const CONSOLE_ADMIN_ERRORS = [...CONSOLE_WRITE_ERRORS, "forbidden"] as const;

/** What starting work for an agent from the console can answer besides its wrapper's codes. */
export const CONSOLE_START_ERRORS = [
  "agent_not_found",
  "runtime_not_applicable",
  "file_not_found",
  "invalid_callback_url",
  "agent_archived",
] as const;

/** A workflow agent's inputs as a trigger body: one schema instance, so one component. */
export const WorkflowInputs = JsonObject.meta({
  description:
    "A workflow agent's input fields (its definition's `inputs`), checked against their declared types. " +
    'A field of type `file` takes a file reference `{"file_id": "fi_..."}`. An optional `callback_url` ' +
    "(not an input unless the workflow declares one of that name) receives the run's completion callbacks.",
});

export const Health = z.strictObject({ status: z.literal("ok") });
export const Readiness = z.strictObject({
  status: z.literal("ready"),
  checks: z.strictObject({ database: z.literal("ok"), queue: z.literal("ok") }),
});

/** Named parts of the records, so that clients get them as types of their own. */
export function namedParts(c: Components) {
  c.ref("TokenUsage", TokenUsage);
  c.ref("SessionListItem", SessionListItem);
  c.ref("MessageListItem", MessageListItem);
  c.ref("RunStatus", RunStatus);
  c.ref("RunListItem", RunListItem);
  c.ref("OutputFile", OutputFile);
  c.ref("RunEvent", RunEvent);
  c.ref("Approval", Approval);
  // Shared by the agent bodies and records (and llm steps): named once.
  c.ref("EchoRuntime", EchoRuntime);
  c.ref("OpenAiRuntime", OpenAiRuntime);
  c.ref("HttpRuntime", HttpRuntime);
  c.ref("RuntimeConfig", RuntimeConfig);
  c.ref("WorkflowStep", Step);
  c.ref("WorkflowDefinition", WorkflowDefinition);
}

/** The prose of a file's bytes (downloads; the contract's answer is ANSWER.file). */
export function binaryFile(description: string, headers: Json = {}): AnswerDoc {
  return {
    description,
    headers: {
      "Content-Type": header("The file's media type."),
      "Content-Length": header("Bytes in this answer.", { type: "integer" }),
      "Content-Disposition": header("`attachment` with the file's name."),
      ...headers,
    },
  };
}

/** What a run control can answer in the envelope. */
export const CONTROL_ERRORS = [
  ...KEY_ERRORS,
  "invalid_request",
  "runtime_not_applicable",
  "run_not_found",
  "invalid_state_transition",
] as const;

const CONTROL_TEXT: Record<ControlAction, { summary: string; description: string }> = {
  pause: { summary: "Pause a run", description: "From `running` or `pending` to `paused`, at the next item boundary." },
  resume: {
    summary: "Resume a run",
    description:
      "From `paused`, `needs_review` or `running` to `running` (items still waiting for review stay waiting). A run already `running` is answered as it is: the move changes nothing and is not recorded in its audit trail.",
  },
  cancel: {
    summary: "Cancel a run",
    description:
      "From `running`, `pending`, `needs_review` or `paused` to `cancelled`; an upstream call in flight is aborted.",
  },
  retry: {
    summary: "Retry a failed run",
    description: "From `failed`: re-runs the same run with the same inputs from the failed step (back to `pending`).",
  },
};

/** The prose of the four run controls (the same but for the move). */
export function controlDoc(action: ControlAction): OperationDoc {
  return {
    operationId: `${action}Run`,
    summary: CONTROL_TEXT[action].summary,
    tag: "Workflow runs",
    description:
      `${CONTROL_TEXT[action].description} The body is empty. From any other state: ` +
      "`409 invalid_state_transition` with `details: {current_status, allowed_actions}`.",
    responses: {
      "200": {
        description: "The run after the move.",
        examples: { run: { summary: `After ${action}`, value: ex.controlledRun(action) } },
      },
    },
  };
}
