import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConversationTriggerBody, ListMessagesQuery, ListSessionsQuery } from "./conversations/schemas";
import { ApiError } from "./errors";
import { fieldLabel, fieldSentence, labelledSentence, labelOfField, validationMessage } from "./validation-messages";
import { parseWith } from "./validate";

/** The envelope's fields for a value the schema refuses. */
function fields(schema: z.ZodType, value: unknown) {
  try {
    parseWith(schema, value, "body");
  } catch (e) {
    return (e as ApiError).details!.fields as { field: string; message: string }[];
  }
  throw new Error("accepted");
}

const Status = z.strictObject({
  status: z.enum(["pending", "running", "completed"]).optional(),
  name: z.string().max(5).optional(),
  tags: z.array(z.string()).min(1).max(2).optional(),
  count: z.number().int().min(1).max(100).optional(),
  ratio: z.number().gt(0).optional(),
  step: z.number().multipleOf(5).optional(),
  mail: z.email().optional(),
  at: z.iso.datetime().optional(),
  flag: z.boolean().optional(),
  kind: z.literal("echo").optional(),
  env: z.record(z.string().regex(/^[A-Z]+$/), z.string()).optional(),
  checked: z
    .string()
    .refine((s) => s !== "no")
    .optional(),
  own: z.string().regex(/^x/, "must start with an x").optional(),
  runtime: z
    .discriminatedUnion("type", [z.object({ type: z.literal("echo") }), z.object({ type: z.literal("http") })])
    .optional(),
});

describe("validation messages", () => {
  it.each<[string, z.ZodType, unknown, { field: string; message: string }[]]>([
    ["a missing required string", ConversationTriggerBody, {}, [{ field: "message", message: "is required" }]],
    [
      "a string where an attachment object belongs",
      ConversationTriggerBody,
      { message: "hi", attachments: ["fi_1"] },
      [{ field: "attachments.0", message: "must be an object with a file_id, not a string" }],
    ],
    [
      "a number where a string belongs",
      ConversationTriggerBody,
      { message: 5 },
      [{ field: "message", message: "must be a string, not a number" }],
    ],
    [
      "an object where an array belongs",
      ConversationTriggerBody,
      { message: "hi", attachments: {} },
      [{ field: "attachments", message: "must be an array, not an object" }],
    ],
    [
      "too long a string",
      ConversationTriggerBody,
      { message: "hi", user_id: "u".repeat(256) },
      [{ field: "user_id", message: "must be at most 255 characters" }],
    ],
    [
      "an empty string with a minimum of one",
      ConversationTriggerBody,
      { message: "hi", session_id: "" },
      [{ field: "session_id", message: "must not be empty" }],
    ],
    [
      "an unknown key of a strict object",
      ConversationTriggerBody,
      { message: "hi", attachments: [{ file_id: "fi_0", name: "x" }] },
      [
        { field: "attachments.0.file_id", message: expect.stringMatching(/^must be a file id: /) },
        { field: "attachments.0", message: 'has an unknown key "name" (the known keys: file_id)' },
      ],
    ],
    [
      "a value outside an enum",
      ListMessagesQuery,
      { role: "system" },
      [{ field: "role", message: "must be one of: user, assistant" }],
    ],
    [
      "a date that is neither form of a timestamp",
      ListSessionsQuery,
      { since: "yesterday" },
      [
        {
          field: "since",
          message: "must be an ISO 8601 date and time in UTC (2026-01-31T12:00:00Z) or a date (YYYY-MM-DD)",
        },
      ],
    ],
    [
      "an enum of statuses",
      Status,
      { status: "done" },
      [{ field: "status", message: "must be one of: pending, running, completed" }],
    ],
    ["too many items", Status, { tags: ["a", "b", "c"] }, [{ field: "tags", message: "must have at most 2 items" }]],
    ["too few items", Status, { tags: [] }, [{ field: "tags", message: "must not be empty" }]],
    [
      "a fraction where an integer belongs",
      Status,
      { count: 1.5 },
      [{ field: "count", message: "must be an integer, not a number" }],
    ],
    ["an integer below its minimum", Status, { count: 0 }, [{ field: "count", message: "must be at least 1" }]],
    ["an integer above its maximum", Status, { count: 101 }, [{ field: "count", message: "must be at most 100" }]],
    ["an exclusive minimum", Status, { ratio: 0 }, [{ field: "ratio", message: "must be greater than 0" }]],
    ["a multiple", Status, { step: 7 }, [{ field: "step", message: "must be a multiple of 5" }]],
    ["an email", Status, { mail: "nope" }, [{ field: "mail", message: "must be an email address" }]],
    ["a boolean", Status, { flag: "yes" }, [{ field: "flag", message: "must be true or false, not a string" }]],
    [
      "null where a boolean belongs",
      Status,
      { flag: null },
      [{ field: "flag", message: "must be true or false, not null" }],
    ],
    ["a literal", Status, { kind: "openai" }, [{ field: "kind", message: 'must be "echo"' }]],
    ["a record's key", Status, { env: { lower: "x" } }, [{ field: "env.lower", message: "is not an allowed key" }]],
    [
      "a refinement without words of its own",
      Status,
      { checked: "no" },
      [{ field: "checked", message: "is not valid" }],
    ],
    ["a schema's own words win", Status, { own: "y" }, [{ field: "own", message: "must start with an x" }]],
    [
      "a discriminator",
      Status,
      { runtime: { type: "grpc" } },
      [{ field: "runtime.type", message: "must be one of: echo, http" }],
    ],
    [
      "unknown keys at the root",
      Status,
      { a: 1, b: 2 },
      [
        {
          field: "(root)",
          message: expect.stringMatching(/^has unknown keys "a", "b" \(the known keys: status, name, /),
        },
      ],
    ],
    ["a non-object body", Status, "text", [{ field: "(root)", message: "must be a JSON object, not a string" }]],
  ])("%s", (_label, schema, value, expected) => {
    expect(fields(schema, value)).toEqual(expected);
  });

  it("keeps zod's field paths: the envelope's `field` is the dotted path", () => {
    expect(fields(ConversationTriggerBody, { message: "hi", attachments: [{}, 3] }).map((f) => f.field)).toEqual([
      "attachments.0.file_id",
      "attachments.1",
    ]);
  });

  it("writes the envelope's message as a sentence naming the field as code would", () => {
    try {
      parseWith(ConversationTriggerBody, { message: "hi", attachments: ["fi_1"] }, "body");
    } catch (e) {
      expect((e as ApiError).message).toBe(
        "Invalid body: attachments[0] must be an object with a file_id, not a string",
      );
      return;
    }
    throw new Error("accepted");
  });

  it("labels paths as code writes them, and sets off a message that is not a predicate", () => {
    expect(fieldLabel(["attachments", 0, "file_id"])).toBe("attachments[0].file_id");
    expect(fieldLabel([])).toBe("");
    expect(labelOfField("workflow.steps.2.id")).toBe("workflow.steps[2].id");
    expect(labelOfField("(root)")).toBe("");
    expect(fieldSentence("message", "is required")).toBe("message is required");
    expect(fieldSentence("workflow.steps.1.id", "duplicate step id a")).toBe(
      "workflow.steps[1].id: duplicate step id a",
    );
    expect(fieldSentence("(root)", "must be a JSON object")).toBe("must be a JSON object");
  });

  it("is an error map a browser form can pass to a parse of its own", () => {
    const r = z.object({ name: z.string() }).safeParse({}, { error: validationMessage });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe("is required");
  });

  it("reads a field's phrase after the label a form shows, never zod's default text", () => {
    const r = z.object({ name: z.string().min(1) }).safeParse({ name: "" }, { error: validationMessage });
    const message = r.error!.issues[0]!.message;
    expect(message).not.toMatch(/Too small|expected string/);
    expect(labelledSentence("Name", message)).toBe("Name must not be empty.");
    expect(labelledSentence("Days", "Enter a number of days from 1 to 3650.")).toBe(
      "Enter a number of days from 1 to 3650.",
    );
  });

  it("speaks in the form's words: the thing a label asks for, no '(optional)', no JSON type of a text field", () => {
    expect(labelledSentence("Choose a password", "must be at least 8 characters")).toBe(
      "The password must be at least 8 characters.",
    );
    expect(labelledSentence("Enter your email", "is required")).toBe("Your email is required.");
    expect(labelledSentence("Your name (optional)", "must be at most 200 characters")).toBe(
      "Your name must be at most 200 characters.",
    );
    expect(labelledSentence("Rate limit (requests a minute, optional)", "must be at least 1")).toBe(
      "Rate limit (requests a minute) must be at least 1.",
    );
    // An empty alert threshold is sent as the text it is: the form says what the field needs.
    const r = z.object({ threshold: z.number() }).safeParse({ threshold: "" }, { error: validationMessage });
    expect(labelledSentence("Alert above (%)", r.error!.issues[0]!.message)).toBe("Alert above (%) must be a number.");
    expect(labelledSentence("Window (minutes)", "must be a number, not null")).toBe(
      "Window (minutes) must be a number.",
    );
    // A JSON editor's value is JSON: what it holds is the person's own words there.
    expect(labelledSentence("Inputs (JSON)", "must be a JSON object, not an array")).toBe(
      "Inputs (JSON) must be a JSON object, not an array.",
    );
  });
});
