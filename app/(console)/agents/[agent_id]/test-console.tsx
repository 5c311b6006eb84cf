"use client";
// The test console: a draft conversation with a conversational agent, or a run of a workflow agent
// started by hand. Console sessions are drafts: listed in the console, never in the public API.
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { requests, type Agent, type ChatReply } from "@/components/console/queries";
import { formatCost, formatMs, formatNumber } from "@/components/console/format";
import { JsonEditor, locateFieldErrors, parseJsonObject, type JsonLineError } from "@/components/console/json-editor";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Textarea } from "@/components/ui/field";
import { Card, Mono } from "@/components/ui/misc";
import { ErrorState } from "@/components/ui/states";
import type { WorkflowDefinition } from "../runtime-labels";

type Entry =
  | { key: number; role: "user"; text: string }
  | { key: number; role: "assistant"; reply: ChatReply; latencyMs: number }
  | {
      key: number;
      role: "error";
      code: string;
      message: string;
      requestId?: string;
      sessionId?: string;
      latencyMs: number;
    };

let entryKey = 1;

const linkClass = "font-medium text-indigo-700 underline-offset-2 hover:underline";

function DraftNote() {
  return (
    <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200" role="note">
      Console conversations are <strong>drafts</strong>: they show on the Sessions page with a{" "}
      <Badge tone="amber">draft</Badge> badge and never appear in the public API.
    </p>
  );
}

function Meta({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span className="whitespace-nowrap">
      <span className="text-zinc-600">{label}</span> <span className="font-medium text-zinc-900">{children}</span>
    </span>
  );
}

function ChatConsole({ agent }: { agent: Agent }) {
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [message, setMessage] = useState("");
  const log = useRef<HTMLDivElement>(null);
  const inputId = useId();
  const focusInput = () => document.getElementById(inputId)?.focus();
  const hintId = `${inputId}-hint`;

  const send = useMutation({
    mutationFn: async (text: string) => {
      const started = performance.now();
      try {
        const reply = await requests.chat(agent.agent_id, {
          message: text,
          ...(sessionId ? { session_id: sessionId } : {}),
        });
        return { reply, latencyMs: performance.now() - started };
      } catch (e) {
        throw Object.assign(e as Error, { latencyMs: performance.now() - started });
      }
    },
    onSuccess: ({ reply, latencyMs }) => {
      setSessionId(reply.session_id);
      setEntries((all) => [...all, { key: entryKey++, role: "assistant", reply, latencyMs }]);
    },
    onError: (e: Error & { latencyMs?: number }) => {
      const err = e instanceof ConsoleApiError ? e : null;
      const sid = typeof err?.details?.session_id === "string" ? err.details.session_id : undefined;
      // A reply that timed out or failed still belongs to its session: the conversation goes on there.
      if (sid) setSessionId(sid);
      setEntries((all) => [
        ...all,
        {
          key: entryKey++,
          role: "error",
          code: err?.code ?? "network_error",
          message: e.message,
          requestId: err?.requestId,
          sessionId: sid,
          latencyMs: e.latencyMs ?? 0,
        },
      ]);
    },
    onSettled: focusInput,
  });

  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [entries, send.isPending]);

  const submit = () => {
    const text = message.trim();
    if (!text || send.isPending) return;
    setEntries((all) => [...all, { key: entryKey++, role: "user", text }]);
    setMessage("");
    send.mutate(text);
  };

  const reset = () => {
    setSessionId(null);
    setEntries([]);
    send.reset();
    focusInput();
  };

  return (
    <Card
      title="Test console"
      actions={
        <>
          {sessionId && (
            <Link href={`/sessions/${sessionId}`} className={cn("self-center text-sm", linkClass)}>
              View session
            </Link>
          )}
          <Button variant="secondary" size="sm" onClick={reset} disabled={send.isPending || entries.length === 0}>
            New conversation
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <DraftNote />
        <div
          ref={log}
          role="log"
          aria-label="Conversation"
          aria-live="polite"
          tabIndex={0}
          className="max-h-[28rem] min-h-40 space-y-3 overflow-y-auto rounded-md bg-zinc-50 p-3 ring-1 ring-zinc-200 focus:ring-2 focus:ring-indigo-600 focus:outline-none"
        >
          {entries.length === 0 && !send.isPending && (
            <p className="py-8 text-center text-sm text-zinc-600">
              Send a message to start a draft conversation with {agent.name}.
            </p>
          )}
          {entries.map((e) =>
            e.role === "user" ? (
              <div key={e.key} className="flex justify-end">
                <div className="max-w-[85%] rounded-lg bg-indigo-600 px-3 py-2 text-sm break-words whitespace-pre-wrap text-white">
                  <span className="sr-only">You: </span>
                  {e.text}
                </div>
              </div>
            ) : e.role === "assistant" ? (
              <div key={e.key} className="flex max-w-[85%] flex-col items-start" data-testid="chat-reply">
                <div className="rounded-lg bg-white px-3 py-2 text-sm break-words whitespace-pre-wrap text-zinc-900 ring-1 ring-zinc-200">
                  <span className="sr-only">{agent.name}: </span>
                  {e.reply.response}
                </div>
                <p
                  className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 px-1 text-xs"
                  data-testid="reply-meta"
                  aria-label="Reply details"
                >
                  <Meta label="Latency">{formatMs(e.latencyMs)}</Meta>
                  <Meta label="Tokens">
                    {e.reply.token_usage
                      ? `${formatNumber(e.reply.token_usage.prompt_tokens)} prompt + ${formatNumber(
                          e.reply.token_usage.completion_tokens,
                        )} completion = ${formatNumber(e.reply.token_usage.total_tokens)}`
                      : "not reported"}
                  </Meta>
                  <Meta label="Cost">{formatCost(e.reply.cost)}</Meta>
                  <Meta label="Model">{e.reply.model ?? "—"}</Meta>
                </p>
              </div>
            ) : (
              <div
                key={e.key}
                role="alert"
                className="max-w-[85%] rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-red-200"
                data-testid="chat-error"
              >
                <p className="font-semibold">
                  {e.code === "upstream_timeout"
                    ? "The agent did not reply in time"
                    : e.code === "upstream_error"
                      ? "The agent failed to reply"
                      : "The message was not sent"}
                </p>
                <p className="mt-0.5 break-words">{e.message}</p>
                <p className="mt-1 flex flex-wrap gap-x-3 text-xs">
                  <span className="font-mono">{e.code}</span>
                  <span>after {formatMs(e.latencyMs)}</span>
                  {e.requestId && (
                    <span className="font-mono">
                      request id: <span className="select-all">{e.requestId}</span>
                    </span>
                  )}
                  {e.sessionId && (
                    <Link href={`/sessions/${e.sessionId}`} className="font-medium underline">
                      View session
                    </Link>
                  )}
                </p>
              </div>
            ),
          )}
          {send.isPending && (
            <p role="status" className="animate-pulse text-sm text-zinc-600">
              Waiting for {agent.name}…
            </p>
          )}
        </div>
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <div className="min-w-0 flex-1 space-y-1">
            <label htmlFor={inputId} className="block text-sm font-medium text-zinc-800">
              Message
            </label>
            <Textarea
              id={inputId}
              rows={2}
              value={message}
              aria-describedby={hintId}
              onChange={(e) => setMessage(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  submit();
                }
              }}
            />
            <p id={hintId} className="text-xs text-zinc-600">
              Enter sends, Shift+Enter starts a new line.
              {sessionId ? (
                <>
                  {" "}
                  Continuing session <Mono>{sessionId}</Mono>.
                </>
              ) : (
                " The first reply starts a new draft session."
              )}
            </p>
          </div>
          <Button type="submit" disabled={send.isPending || !message.trim()} className="sm:mb-6">
            {send.isPending ? "Sending…" : "Send"}
          </Button>
        </form>
      </div>
    </Card>
  );
}

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

function RunConsole({ agent }: { agent: Agent }) {
  const [text, setText] = useState(() => sampleInputs(agent.workflow));
  const [clientError, setClientError] = useState<JsonLineError | null>(null);
  const [started, setStarted] = useState<{ run_id: string; at: string }[]>([]);
  const declared = Object.entries(agent.workflow?.inputs ?? {});
  const hasFile = declared.some(([, d]) => d.type === "file");

  const start = useMutation({
    mutationFn: (inputs: Record<string, unknown>) => requests.startRun(agent.agent_id, inputs),
    onSuccess: (r) => setStarted((all) => [{ run_id: r.run_id, at: new Date().toISOString() }, ...all]),
  });
  const err = start.error instanceof ConsoleApiError ? start.error : null;
  const fields = err?.code === "invalid_request" ? err.fields : {};
  const serverErrors = locateFieldErrors(text, fields, "inputs", { includeBare: true });
  const errors = clientError ? [clientError] : serverErrors;

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
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            const parsed = parseJsonObject(text);
            if (!parsed.ok) {
              setClientError(parsed.error);
              start.reset();
              return;
            }
            setClientError(null);
            start.mutate(parsed.value);
          }}
        >
          <JsonEditor
            label="Inputs (JSON)"
            value={text}
            onChange={(v) => {
              setText(v);
              setClientError(null);
            }}
            errors={errors}
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
          {err && serverErrors.length === 0 && <ErrorState error={err} title="The run was not started" />}
          {start.error && !err && <ErrorState error={start.error} title="The run was not started" />}
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
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </Card>
  );
}

export function TestConsole({ agent }: { agent: Agent }) {
  return agent.kind === "workflow" ? <RunConsole agent={agent} /> : <ChatConsole agent={agent} />;
}
