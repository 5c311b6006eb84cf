"use client";
// The test console of a conversational agent: a draft conversation, one message at a time.
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { bodyTooLarge } from "@/components/console/format";
import { request } from "@/components/console/use-api";
import type { AgentRecord } from "@/lib/agents/schemas";
import { JSON_BODY_LIMIT, jsonBodyBytes } from "@/lib/http/body-limit";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Card } from "@/components/ui/misc";
import type { Entry } from "./chat-entry";
import { ChatLog } from "./chat-log";
import { ChatMessageForm } from "./chat-message-form";
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

export function ChatConsole({ agent }: { agent: AgentRecord }) {
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [message, setMessage] = useState("");
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const { version, field: versionField } = useVersionChoice(agent, "Each reply says which version answered.");
  const inputId = useId();
  const focusInput = () => document.getElementById(inputId)?.focus();

  const send = useMutation({
    mutationFn: async (text: string) => {
      const started = performance.now();
      try {
        const reply = await request("POST /api/v1/organizations/[org_id]/agents/[agent_id]/chat", {
          params: { agent_id: agent.agent_id },
          body: {
            message: text,
            ...(sessionId ? { session_id: sessionId } : {}),
            ...(version !== null ? { agent_version: version } : {}),
          },
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
        <ChatLog entries={entries} pending={send.isPending} agentName={agent.name} />
        <ChatMessageForm
          inputId={inputId}
          message={message}
          onMessage={(text) => {
            setMessage(text);
            setTooLarge(null);
          }}
          tooLarge={tooLarge}
          sessionId={sessionId}
          pending={send.isPending}
          onSubmit={submit}
        />
      </div>
    </Card>
  );
}
