// Workflow definitions (DESIGN.md "Workflow agents"), validated when an agent is saved.
// JSONata expressions (and the {{...}} parts of llm prompts) are compiled here so that a syntax
// error is reported at save time, with the zod path naming the step and field
// (e.g. `workflow.steps.2.when`). docs/workflows.md documents the format.
import jsonata from "jsonata";
import { z } from "zod";
import { RuntimeConfig, UpstreamHeaders, UpstreamUrl } from "../runtime/schema";

export const InputType = z.enum(["string", "number", "integer", "boolean", "object", "array", "file"]);
export type InputType = z.infer<typeof InputType>;

const InputDecl = z.strictObject({
  type: InputType,
  required: z.boolean().default(false),
  description: z.string().optional(),
});
export type InputDecl = z.infer<typeof InputDecl>;

function compileError(expr: string): string | undefined {
  try {
    jsonata(expr);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const Expression = z
  .string()
  .min(1)
  .superRefine((expr, ctx) => {
    const err = compileError(expr);
    if (err) ctx.addIssue({ code: "custom", message: `invalid JSONata expression: ${err}` });
  });

/** `{{ expression }}` placeholders of an llm prompt; each is a JSONata expression. */
export const TEMPLATE_RE = /\{\{([\s\S]+?)\}\}/g;

const Template = z
  .string()
  .min(1)
  .superRefine((tpl, ctx) => {
    for (const m of tpl.matchAll(TEMPLATE_RE)) {
      const err = compileError(m[1]!.trim());
      if (err) ctx.addIssue({ code: "custom", message: `invalid JSONata in {{${m[1]}}}: ${err}` });
    }
  });

/** What an unexpected error in a step does to the item (and the run). */
export const OnError = z.enum(["review", "fail_item", "fail_run"]);
export type OnError = z.infer<typeof OnError>;

const stepBase = {
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -"),
  on_error: OnError.default("review"),
};
const when = { when: Expression.optional() };
/** Where an http/llm answer goes in the item; defaults to the step id. */
const into = {
  into: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a field name")
    .optional(),
};

export const Step = z.discriminatedUnion("type", [
  z.strictObject({ ...stepBase, type: z.literal("transform"), expression: Expression, ...when }),
  z.strictObject({
    ...stepBase,
    type: z.literal("fail"),
    when: Expression,
    message: z.string().optional(),
    /** A matching item fails the whole run (status failed); retry resumes from this step. */
    fatal: z.boolean().default(false),
  }),
  z.strictObject({ ...stepBase, type: z.literal("review"), when: Expression, message: z.string().optional() }),
  z.strictObject({ ...stepBase, type: z.literal("skip"), when: Expression }),
  z.strictObject({
    ...stepBase,
    type: z.literal("http"),
    url: UpstreamUrl,
    timeout_ms: z.number().int().min(100).max(600_000).default(10_000),
    headers: UpstreamHeaders.optional(),
    /** JSONata for the request body; by default {run_id, step_id, item_index, item, inputs}. */
    body: Expression.optional(),
    ...into,
    ...when,
  }),
  z.strictObject({
    ...stepBase,
    type: z.literal("llm"),
    prompt: Template,
    /** Defaults to the agent's runtime. */
    runtime: RuntimeConfig.optional(),
    system: z.string().optional(),
    ...into,
    ...when,
  }),
  z.strictObject({ ...stepBase, type: z.literal("wait"), ms: z.number().int().min(0).max(3_600_000), ...when }),
]);
export type Step = z.infer<typeof Step>;

/** Upper bound of a definition's `concurrency`. */
export const MAX_CONCURRENCY = 32;

export const OutputFormat = z.enum(["csv", "jsonl", "json"]);
export type OutputFormat = z.infer<typeof OutputFormat>;

export const WorkflowDefinition = z
  .strictObject({
    inputs: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), InputDecl).default({}),
    items: z.strictObject({ from: z.string(), format: OutputFormat.optional() }).optional(),
    steps: z.array(Step).min(1).max(100),
    /** Items of one run processed at once (default 1): for http and llm steps that wait on an
     *  upstream. The output keeps item order and the counts stay exact either way. */
    concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).optional(),
    output: z
      .strictObject({
        filename: z
          .string()
          .min(1)
          .max(200)
          .regex(/^[^/\\\0]+$/, "must be a file name without a path"),
        format: OutputFormat,
      })
      .optional(),
  })
  .superRefine((wf, ctx) => {
    const seen = new Set<string>();
    wf.steps.forEach((s, i) => {
      if (seen.has(s.id))
        ctx.addIssue({ code: "custom", path: ["steps", i, "id"], message: `duplicate step id ${s.id}` });
      seen.add(s.id);
    });
    if (wf.items) {
      const src = wf.inputs[wf.items.from];
      if (!src) {
        ctx.addIssue({ code: "custom", path: ["items", "from"], message: `no input named ${wf.items.from}` });
      } else if (src.type !== "file" && src.type !== "array") {
        ctx.addIssue({ code: "custom", path: ["items", "from"], message: "items come from an array or file input" });
      } else if (src.type === "file" && !wf.items.format) {
        ctx.addIssue({
          code: "custom",
          path: ["items", "format"],
          message: "a file input needs a format (csv, jsonl, json)",
        });
      }
    }
  });

export type WorkflowDefinition = z.infer<typeof WorkflowDefinition>;
