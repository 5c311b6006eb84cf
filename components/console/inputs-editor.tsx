"use client";
// A workflow run's inputs as a JSON object, edited before a run starts: the agent's test console
// and "Run again" on a run's page (docs/console.md, Runs). The text is checked here first (a JSON
// object, and with `limit` within the API's body limit); the server's field errors for `inputs.*`
// are shown on their lines, any other refusal below the editor.
import { useState, type ReactNode } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { bodyTooLarge } from "@/components/console/format";
import { JsonEditor, locateFieldErrors, parseJsonObject, type JsonLineError } from "@/components/console/json-editor";
import { ErrorState } from "@/components/ui/states";
import { JSON_BODY_LIMIT, jsonBodyBytes } from "@/lib/http/body-limit";

/** The mutation that sends the inputs (a run start or a rerun). */
interface SendsInputs {
  error: Error | null;
  reset: () => void;
  mutate: (inputs: Record<string, unknown>) => void;
}

export function useInputsEditor(
  initial: () => string,
  send: SendsInputs,
  { limit = false, resetOnEdit = false }: { limit?: boolean; resetOnEdit?: boolean } = {},
) {
  const [text, setText] = useState(initial);
  const [clientError, setClientError] = useState<JsonLineError | null>(null);
  const err = send.error instanceof ConsoleApiError ? send.error : null;
  const serverErrors =
    err?.code === "invalid_request" ? locateFieldErrors(text, err.fields, "inputs", { includeBare: true }) : [];
  const errors = clientError ? [clientError] : serverErrors;
  const refuse = (error: JsonLineError) => {
    setClientError(error);
    send.reset();
  };
  return {
    text,
    errors,
    /** A refusal with no line to show it on. */
    unplaced: send.error && errors.length === 0 ? send.error : null,
    edit: (t: string) => {
      setText(t);
      setClientError(null);
      if (resetOnEdit && send.error) send.reset();
    },
    submit: () => {
      const parsed = parseJsonObject(text);
      if (!parsed.ok) return refuse(parsed.error);
      // Over the API's body limit the server would answer 413: refuse here, before sending.
      const bytes = limit ? jsonBodyBytes({ inputs: parsed.value }) : 0;
      if (bytes > JSON_BODY_LIMIT) {
        return refuse({ line: null, message: bodyTooLarge("The inputs are", bytes, JSON_BODY_LIMIT) });
      }
      setClientError(null);
      send.mutate(parsed.value);
    },
  };
}

/** The editor of `useInputsEditor`, and below it a refusal that has no line. */
export function InputsEditor({
  editor,
  rows,
  hint,
}: {
  editor: ReturnType<typeof useInputsEditor>;
  rows: number;
  hint: ReactNode;
}) {
  return (
    <>
      <JsonEditor
        label="Inputs (JSON)"
        value={editor.text}
        onChange={editor.edit}
        errors={editor.errors}
        rows={rows}
        hint={hint}
      />
      {editor.unplaced && <ErrorState error={editor.unplaced} title="The run was not started" />}
    </>
  );
}
