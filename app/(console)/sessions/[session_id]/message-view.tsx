"use client";
// One message of a thread, and the thread's list. Rendering stays responsive at any size: a message
// past COLLAPSE_AT characters shows its start with "Show all (200 KB)", and each message is laid out
// only near the viewport (content-visibility), so a long thread does not lay out every message at once.
// Each reply names the agent version that produced it, and a mark shows where the version changed.
import { Fragment, useState } from "react";
import type { OrgMessageRecord as MessageItem, TokenUsage } from "@/lib/conversations/schemas";
import { formatCost, formatDate, formatMs, formatNumber } from "@/components/console/format";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Mono } from "@/components/ui/misc";

/** A message longer than this many characters shows collapsed. */
export const COLLAPSE_AT = 4_000;

export const tokens = (u: TokenUsage | null) =>
  u
    ? `${formatNumber(u.total_tokens)} (${formatNumber(u.prompt_tokens)} in, ${formatNumber(u.completion_tokens)} out)`
    : "—";

/** A text's size in its UTF-8 bytes, in the words of the expand button: "200 KB". */
export function textSize(text: string): string {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function MessageText({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const long = text.length > COLLAPSE_AT;
  const shown = long && !expanded ? `${text.slice(0, COLLAPSE_AT)}…` : text;
  return (
    <div className="mt-2">
      <p
        data-testid="message-text"
        data-collapsed={long && !expanded ? "true" : undefined}
        className="text-sm whitespace-pre-wrap text-zinc-900 [overflow-wrap:anywhere]"
      >
        {shown}
      </p>
      {long && (
        <Button variant="secondary" size="sm" className="mt-2" onClick={() => setExpanded(!expanded)}>
          {expanded ? "Show less" : `Show all (${textSize(text)})`}
        </Button>
      )}
    </div>
  );
}

export function Message({ m }: { m: MessageItem }) {
  const assistant = m.role === "assistant";
  const label = assistant ? "Assistant" : "User";
  // A reply still being produced has no cost, tokens or time yet: "—", not "$0.00" and "0 ms".
  const known = m.status !== "processing";
  return (
    <li className="[contain-intrinsic-size:auto_10rem] [content-visibility:auto]">
      <article
        aria-label={`${label} message`}
        // The anchor of a link to this message (a callback delivery's subject: /sessions/{id}#msg_...).
        id={m.message_id}
        data-message-id={m.message_id}
        className={cn(
          "scroll-mt-20 rounded-lg border-l-4 bg-white p-3 ring-1 ring-zinc-200 target:ring-2 target:ring-indigo-500 sm:p-4",
          assistant ? "border-indigo-400" : "border-zinc-300",
          m.status === "error" && "border-red-400",
        )}
      >
        <header className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <h3 className="text-sm font-semibold text-zinc-900">{label}</h3>
          <StatusBadge status={m.status} />
          <span className="text-xs text-zinc-600">
            <time dateTime={m.created_at} title={formatDate(m.created_at)}>
              {formatDate(m.created_at)}
            </time>
          </span>
          {m.agent_version !== null && <span className="text-xs text-zinc-600">· version {m.agent_version}</span>}
        </header>
        {m.content ? (
          <MessageText text={m.content} />
        ) : m.status === "processing" ? (
          <p className="mt-2 text-sm text-zinc-600 italic">Waiting for the agent&apos;s reply…</p>
        ) : null}
        {m.error && (
          <div className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-red-200">
            <p>
              <span className="font-medium">Error </span>
              <Mono>{m.error.code}</Mono>
            </p>
            <p className="mt-0.5 [overflow-wrap:anywhere]">{m.error.message}</p>
          </div>
        )}
        {assistant && (
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-xs sm:grid-cols-4">
            {(
              [
                ["Model", m.model ?? "—"],
                ["Tokens", known ? tokens(m.token_usage) : "—"],
                ["Cost", known ? formatCost(m.cost) : "—"],
                ["Processing time", known ? formatMs(m.processing_time_ms) : "—"],
              ] as const
            ).map(([k, v]) => (
              <div key={k} className="min-w-0">
                <dt className="text-zinc-600">{k}</dt>
                <dd className="break-words text-zinc-900">{v}</dd>
              </div>
            ))}
          </dl>
        )}
      </article>
    </li>
  );
}

/** Where a reply's version differs from the reply before: "Version 7 from here". */
function VersionMark({ version }: { version: number }) {
  return (
    <li data-testid="version-mark" className="flex items-center gap-3 text-xs font-medium text-indigo-800">
      <span aria-hidden className="h-px flex-1 bg-indigo-200" />
      Version {version} from here
      <span aria-hidden className="h-px flex-1 bg-indigo-200" />
    </li>
  );
}

export function MessageList({ messages }: { messages: MessageItem[] }) {
  let previous: number | null = null;
  return (
    <ol aria-label="Thread, oldest first" className="space-y-3">
      {messages.map((m) => {
        const changed = m.agent_version !== null && previous !== null && m.agent_version !== previous;
        if (m.agent_version !== null) previous = m.agent_version;
        return (
          <Fragment key={m.message_id}>
            {changed && <VersionMark version={m.agent_version!} />}
            <Message m={m} />
          </Fragment>
        );
      })}
    </ol>
  );
}
