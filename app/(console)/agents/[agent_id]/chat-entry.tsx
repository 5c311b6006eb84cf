"use client";
// One entry of the test console's conversation: the message sent, the reply with its latency, tokens,
// cost and model, or the error with its code and request id.
import Link from "next/link";
import { type ReactNode } from "react";
import type { ChatTestReply } from "@/lib/conversations/schemas";
import { formatCost, formatMs, formatNumber } from "@/components/console/format";

export type Entry =
  | { key: number; role: "user"; text: string }
  | { key: number; role: "assistant"; reply: ChatTestReply; latencyMs: number }
  | {
      key: number;
      role: "error";
      code: string;
      message: string;
      requestId?: string;
      sessionId?: string;
      latencyMs: number;
    };

function Meta({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span className="whitespace-nowrap">
      <span className="text-zinc-600">{label}</span> <span className="font-medium text-zinc-900">{children}</span>
    </span>
  );
}

export function ChatEntry({ entry: e, agentName }: { entry: Entry; agentName: string }) {
  return e.role === "user" ? (
    <div className="flex justify-end">
      <div className="max-w-[85%] rounded-lg bg-indigo-600 px-3 py-2 text-sm break-words whitespace-pre-wrap text-white">
        <span className="sr-only">You: </span>
        {e.text}
      </div>
    </div>
  ) : e.role === "assistant" ? (
    <div className="flex max-w-[85%] flex-col items-start" data-testid="chat-reply">
      <div className="rounded-lg bg-white px-3 py-2 text-sm break-words whitespace-pre-wrap text-zinc-900 ring-1 ring-zinc-200">
        <span className="sr-only">{agentName}: </span>
        {e.reply.response}
      </div>
      <p
        className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 px-1 text-xs"
        data-testid="reply-meta"
        aria-label="Reply details"
      >
        <Meta label="Version">{e.reply.agent_version}</Meta>
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
  );
}
