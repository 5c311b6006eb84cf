// A trigger body checked against the workflow's declared inputs: required fields present, values
// of the declared type, file inputs as file reference objects (docs/api.md, Files). Fields the workflow does
// not declare are kept as they are (callers often send more than an agent reads).
import { z } from "zod";
import { fileIdString } from "../validate";
import type { InputDecl, InputType, WorkflowDefinition } from "./schema";

export const FileRef = z.strictObject({ file_id: fileIdString() });

const byType: Record<InputType, () => z.ZodType> = {
  string: () => z.string(),
  number: () => z.number(),
  integer: () => z.number().int(),
  boolean: () => z.boolean(),
  object: () => z.record(z.string(), z.unknown()),
  array: () => z.array(z.unknown()),
  // A bare `fi_` string is not resolved (SPEC 4.1, file references, rule 2): the error says so.
  file: () =>
    z
      .strictObject(FileRef.shape, {
        error: (iss) =>
          iss.code === "invalid_type" && iss.input !== undefined
            ? `must be a file reference object {"file_id": "fi_..."}${
                typeof iss.input === "string" && iss.input.startsWith("fi_")
                  ? `, not a bare id: send {"file_id": "${iss.input.slice(0, 40)}"}`
                  : ""
              }`
            : undefined,
      })
      .describe('a file reference object {"file_id": "fi_..."}'),
};

function fieldSchema(decl: InputDecl): z.ZodType {
  const base = byType[decl.type]();
  return decl.required ? base : base.nullish();
}

export function inputsSchema(def: WorkflowDefinition) {
  const shape = Object.fromEntries(Object.entries(def.inputs).map(([name, decl]) => [name, fieldSchema(decl)]));
  return z.looseObject(shape);
}
