"use client";
// The test console of a conversational agent: a draft conversation, one message at a time.
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { bodyTooLarge } from "@/components/console/format";
import { requests, type Agent } from "@/components/console/queries";
import { JSON_BODY_LIMIT, jsonBodyBytes } from "@/lib/http/body-limit";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Textarea } from "@/components/ui/field";
import { Card, Mono } from "@/components/ui/misc";
import { ChatEntry, type Entry } from "./chat-entry";
import { linkClass } from "./links";
import { useVersionChoice } from "./version-choice";

let entryKey = 1;

function DraftNote() {
  return (
    <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200" role="note">
      Console conversations are <strong>drafts</strong>: they show on the Sessions page with a{" "}
      <Badge tone="amber">draft</Badge> badge and never appear in the public API.
    </p>
  );
}

export function ChatConsole({ agent }: { agent: Agent }) {
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [message, setMessage] = useState("");
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const { version, field: versionField } = useVersionChoice(agent, "Each reply says which version answered.");
  const log = useRef<HTMLDivElement>(null);
  const inputId = useId();
  const focusInput = () => document.getElementById(inputId)?.focus();
  const hintId = `${inputId}-hint`;
  const limitId = `${inputId}-limit`;

  const send = useMutation({
    mutationFn: async (text: string) => {
      const started = performance.now();
      try {
        const reply = await requests.chat(agent.agent_id, {
          message: text,
          ...(sessionId ? { session_id: sessionId } : {}),
          ...(version !== null ? { agent_version: version } : {}),
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
    // Over the API's body limit the server would answer 413: refuse here, keeping the text to shorten.
    const bytes = jsonBodyBytes({ message: text, ...(sessionId ? { session_id: sessionId } : {}) });
    if (bytes > JSON_BODY_LIMIT) {
      setTooLarge(bodyTooLarge("The message is", bytes, JSON_BODY_LIMIT));
      return;
    }
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
        {versionField}
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
          {entries.map((e) => (
            <ChatEntry key={e.key} entry={e} agentName={agent.name} />
          ))}
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
              aria-describedby={tooLarge ? `${hintId} ${limitId}` : hintId}
              aria-invalid={tooLarge ? true : undefined}
              invalid={Boolean(tooLarge)}
              onChange={(e) => {
                setMessage(e.target.value);
                setTooLarge(null);
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  submit();
                }
              }}
            />
            {tooLarge && (
              <p id={limitId} role="alert" className="text-xs font-medium text-red-700">
                {tooLarge}
              </p>
            )}
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
