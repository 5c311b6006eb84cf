"use client";
// The test console's conversation: its entries, a note while the agent is answering, kept scrolled
// to the latest.
import { useEffect, useRef } from "react";
import { ChatEntry, type Entry } from "./chat-entry";

export function ChatLog({ entries, pending, agentName }: { entries: Entry[]; pending: boolean; agentName: string }) {
  const log = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [entries, pending]);
  return (
    <div
      ref={log}
      role="log"
      aria-label="Conversation"
      aria-live="polite"
      tabIndex={0}
      className="max-h-[28rem] min-h-40 space-y-3 overflow-y-auto rounded-md bg-zinc-50 p-3 ring-1 ring-zinc-200 focus:ring-2 focus:ring-indigo-600 focus:outline-none"
    >
      {entries.length === 0 && !pending && (
        <p className="py-8 text-center text-sm text-zinc-600">
          Send a message to start a draft conversation with {agentName}.
        </p>
      )}
      {entries.map((e) => (
        <ChatEntry key={e.key} entry={e} agentName={agentName} />
      ))}
      {pending && (
        <p role="status" className="animate-pulse text-sm text-zinc-600">
          Waiting for {agentName}…
        </p>
      )}
    </div>
  );
}
