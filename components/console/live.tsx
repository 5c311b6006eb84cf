"use client";
// Live updates (docs/console.md, Live updates): while the tab is visible and Live is on, one long
// poll of /api/console/changes per page answers as soon as something of the organization in the
// page's topics changed, and the page's react-query queries of those topics are invalidated (they
// refetch what they show). No fixed polling of every list: an idle page holds one request that the
// server answers after ~25 s with nothing. Hidden tab: the poll is dropped, and picked up again
// (with the same cursor, so a change meanwhile answers at once) when the tab shows again.
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { apiKey, request } from "./use-api";
import { cn } from "@/components/ui/cn";
import type { ChangesAnswer } from "@/lib/reviews/schemas";

export type LiveTopic = "runs" | "sessions" | "messages" | "reviews";

/** The query keys each topic invalidates (prefixes: a list's key covers its records and what is under them). */
const RUNS = apiKey("GET /api/v1/organizations/[org_id]/runs");
const SESSIONS = apiKey("GET /api/v1/organizations/[org_id]/sessions");
const KEYS: Record<LiveTopic, QueryKey[]> = {
  runs: [RUNS, apiKey("GET /api/v1/organizations/[org_id]/overview")],
  sessions: [SESSIONS],
  messages: [SESSIONS],
  reviews: [apiKey("GET /api/v1/organizations/[org_id]/reviews"), RUNS],
};

// The Live switch: one for the whole console, remembered in this browser.
const STORAGE_KEY = "console.live";
const listeners = new Set<() => void>();
const readLive = () => (typeof window === "undefined" ? true : window.localStorage.getItem(STORAGE_KEY) !== "off");
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
function setLive(on: boolean) {
  window.localStorage.setItem(STORAGE_KEY, on ? "on" : "off");
  for (const l of listeners) l();
}
export const useLive = () => useSyncExternalStore(subscribe, readLive, () => true);

function useVisible() {
  return useSyncExternalStore(
    (l) => {
      document.addEventListener("visibilitychange", l);
      return () => document.removeEventListener("visibilitychange", l);
    },
    () => document.visibilityState === "visible",
    () => true,
  );
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * Keeps the page's queries of `topics` fresh while Live is on and the tab is visible. With
 * `sessionId` (the thread view) the `messages` topic wakes only for that session's messages.
 */
export function useLiveUpdates(topics: readonly LiveTopic[], opts: { sessionId?: string } = {}) {
  const { sessionId } = opts;
  const qc = useQueryClient();
  const live = useLive();
  const visible = useVisible();
  const key = [...topics].sort().join(",");
  useEffect(() => {
    if (!live || !visible || !key) return;
    const names = key.split(",") as LiveTopic[];
    const stop = new AbortController();
    let cursor: string | null = null;
    void (async () => {
      let failures = 0;
      while (!stop.signal.aborted) {
        try {
          // One long poll: answers when a topic changed after `cursor` (or after its hold).
          const answer: ChangesAnswer = await request(
            "GET /api/console/changes",
            { query: { topics: names.join(","), since: cursor ?? undefined, session_id: sessionId } },
            stop.signal,
          );
          // Coming back (a new cursor after a pause): refresh once, something may have changed meanwhile.
          const changed = cursor === null ? [] : answer.changed;
          cursor = answer.cursor;
          failures = 0;
          const keys = new Set(changed.flatMap((t) => KEYS[t]));
          for (const k of keys) void qc.invalidateQueries({ queryKey: k });
        } catch {
          if (stop.signal.aborted) return;
          // The server refused or is away: back off (2 s, 4 s, ... up to 30 s) rather than hammer it.
          failures += 1;
          await sleep(Math.min(30_000, 1000 * 2 ** failures), stop.signal);
        }
      }
    })();
    return () => stop.abort();
  }, [qc, live, visible, key, sessionId]);
  // Resuming after a pause: what the page shows may be old.
  useEffect(() => {
    if (!live || !visible) return;
    for (const k of new Set(key.split(",").flatMap((t) => KEYS[t as LiveTopic] ?? []))) {
      void qc.invalidateQueries({ queryKey: k });
    }
  }, [qc, live, visible, key]);
  return live && visible;
}

/** The "Live" switch shown in a page's header: on, the page updates itself; off, it holds still. */
export function LiveToggle({ className }: { className?: string }) {
  const live = useLive();
  return (
    <button
      type="button"
      role="switch"
      aria-checked={live}
      onClick={() => setLive(!live)}
      title={live ? "New and changed rows appear by themselves. Click to pause." : "Updates paused. Click to resume."}
      className={cn(
        "inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm font-medium ring-1 ring-inset",
        live ? "bg-emerald-50 text-emerald-800 ring-emerald-300" : "bg-zinc-100 text-zinc-700 ring-zinc-300",
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={cn("h-2 w-2 rounded-full", live ? "animate-pulse bg-emerald-600" : "bg-zinc-500")}
      />
      {live ? "Live" : "Paused"}
      <span className="sr-only"> updates</span>
    </button>
  );
}
