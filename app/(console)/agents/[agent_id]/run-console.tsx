"use client";
// The test console of a workflow agent: a run started by hand with JSON inputs.
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { request } from "@/components/console/use-api";
import { InputsEditor, useInputsEditor } from "@/components/console/inputs-editor";
import { Button } from "@/components/ui/button";
import { Card, Mono } from "@/components/ui/misc";
import type { AgentRecord } from "@/lib/agents/schemas";
import type { WorkflowDefinition } from "../runtime-labels";
import { linkClass } from "./links";
import { useVersionChoice } from "./version-choice";

const SAMPLE_BY_TYPE: Record<string, unknown> = {
  string: "",
  number: 0,
  integer: 0,
  boolean: false,
  object: {},
  array: [],
  file: { file_id: "fi_…" },
};

/** Inputs prefilled from the definition's declared inputs, one sample value per type. */
export function sampleInputs(def: WorkflowDefinition | null): string {
  const inputs = def?.inputs ?? {};
  const sample = Object.fromEntries(Object.entries(inputs).map(([k, d]) => [k, SAMPLE_BY_TYPE[d.type] ?? null]));
  return JSON.stringify(sample, null, 2) + "\n";
}

export function RunConsole({ agent }: { agent: AgentRecord }) {
  const [started, setStarted] = useState<{ run_id: string; version: number }[]>([]);
  const declared = Object.entries(agent.workflow?.inputs ?? {});
  const hasFile = declared.some(([, d]) => d.type === "file");

  const { version, field: versionField } = useVersionChoice(agent, "Each run started here says which version it uses.");
  const start = useMutation({
    // `version`: the one to try (the draft too); null: the one a trigger would get.
    mutationFn: (inputs: Record<string, unknown>) =>
      request("POST /api/v1/organizations/[org_id]/agents/[agent_id]/runs", {
        params: { agent_id: agent.agent_id },
        body: { inputs, ...(version != null ? { agent_version: version } : {}) },
      }),
    onSuccess: (r) => setStarted((all) => [{ run_id: r.run_id, version: r.agent_version }, ...all]),
  });
  const editor = useInputsEditor(() => sampleInputs(agent.workflow), start, { limit: true });

  return (
    <Card title="Test console">
      <div className="space-y-3">
        <p className="text-sm text-zinc-700">
          Start a run with these inputs, as a trigger would; it is listed on the Runs page.
        </p>
        {declared.length > 0 && (
          <ul className="flex flex-wrap gap-2 text-xs" aria-label="Declared inputs">
            {declared.map(([name, d]) => (
              <li key={name} className="rounded-md bg-zinc-100 px-2 py-1 ring-1 ring-zinc-200">
                <span className="font-mono font-medium">{name}</span>: {d.type}
                {d.required ? ", required" : ""}
                {d.description ? ` (${d.description})` : ""}
              </li>
            ))}
          </ul>
        )}
        {versionField}
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            editor.submit();
          }}
        >
          <InputsEditor
            editor={editor}
            rows={8}
            hint={
              hasFile ? (
                <>
                  File inputs take <code className="font-mono">{`{"file_id": "fi_…"}`}</code> from an upload (
                  <Link href="/uploads" className={linkClass}>
                    Uploads
                  </Link>
                  ).
                </>
              ) : (
                "Prefilled from the workflow's declared inputs."
              )
            }
          />
          <Button type="submit" disabled={start.isPending}>
            {start.isPending ? "Starting…" : "Start run"}
          </Button>
        </form>
        {started.length > 0 && (
          <div role="status">
            <p className="text-sm font-medium text-zinc-800">Runs started here</p>
            <ul className="mt-1 space-y-1 text-sm">
              {started.map((r) => (
                <li key={r.run_id} className="flex flex-wrap items-center gap-2">
                  <Link href={`/runs/${r.run_id}`} className={linkClass}>
                    Open run <Mono>{r.run_id}</Mono>
                  </Link>
                  <span className="text-xs text-zinc-600">version {r.version}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </Card>
  );
}
