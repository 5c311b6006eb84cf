"use client";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { apiKey, useApi, useApiPages } from "@/components/console/use-api";
import { ConsoleApiError } from "@/components/console/api";
import { DetailState } from "@/components/console/detail-state";
import { UserLink } from "@/components/console/search-box";
import { formatCost, formatDate, formatNumber, relative } from "@/components/console/format";
import { ShortId } from "@/components/console/short-id";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { BackLink, Card, CopyButton, Details, Mono, PageHeader } from "@/components/ui/misc";
import { LiveToggle, useLiveUpdates } from "@/components/console/live";
import { EmptyState, ErrorState, Skeleton, SkeletonRows } from "@/components/ui/states";
import type { OrgSessionRecord as SessionDetail } from "@/lib/conversations/schemas";
import { MessageList, tokens } from "./message-view";

const PAGE_SIZE = 50;
const SESSION = "GET /api/v1/organizations/[org_id]/sessions/[session_id]";

function When({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} title={formatDate(iso)}>
      {formatDate(iso)} <span className="text-zinc-600">({relative(iso)})</span>
    </time>
  );
}

function SessionHeader({ session }: { session: SessionDetail }) {
  return (
    <Card title="Session">
      <Details
        items={[
          [
            "Status",
            <span key="s" className="flex flex-wrap items-center gap-1.5">
              <StatusBadge status={session.status} />
              {session.environment === "draft" && <Badge tone="amber">draft</Badge>}
            </span>,
          ],
          [
            "Agent",
            <Link
              key="a"
              href={`/sessions?agent_id=${encodeURIComponent(session.agent_id)}`}
              className="font-medium text-indigo-700 hover:underline"
              title="Sessions of this agent"
            >
              {session.agent_name}
            </Link>,
          ],
          ["User", session.user_id ? <UserLink key="u" userId={session.user_id} /> : "—"],
          ["Channel", session.channel],
          ["Created", <When key="c" iso={session.created_at} />],
          ["Last message", <When key="l" iso={session.last_message_at} />],
          ["Messages", formatNumber(session.message_count)],
          ["Tokens", tokens(session.token_usage)],
          ["Cost", formatCost(session.cost)],
          ["Session id", <Mono key="i">{session.session_id}</Mono>],
        ]}
      />
      <div className="mt-4">
        <h3 className="text-xs font-medium text-zinc-600">Metadata</h3>
        {Object.keys(session.metadata ?? {}).length ? (
          <pre
            data-testid="session-metadata"
            className="mt-1 max-h-64 overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs text-zinc-800 ring-1 ring-zinc-200"
          >
            {JSON.stringify(session.metadata, null, 2)}
          </pre>
        ) : (
          <p className="mt-0.5 text-sm text-zinc-600">none</p>
        )}
      </div>
    </Card>
  );
}

export function ThreadView({ sessionId }: { sessionId: string }) {
  const qc = useQueryClient();
  // Live through the changes feed (components/console/live.tsx): new messages and settled replies.
  const live = useLiveUpdates(["messages"], { sessionId });
  // Oldest first, a page at a time; not polled: the changes feed keeps it fresh.
  const messages = useApiPages("GET /api/v1/organizations/[org_id]/sessions/[session_id]/messages", {
    params: { session_id: sessionId },
    query: { limit: PAGE_SIZE },
  });
  const all = messages.data?.pages.flatMap((p) => p.messages) ?? [];
  const processing = all.some((m) => m.status === "processing");
  const session = useApi(SESSION, { params: { session_id: sessionId } });

  // A thread read to its end stays at its end: a new message past the last page is fetched too.
  const complete = useRef(false);
  const { hasNextPage, isFetching, fetchNextPage } = messages;
  useEffect(() => {
    if (isFetching || !messages.data) return;
    if (hasNextPage && complete.current && live) void fetchNextPage();
    else complete.current = !hasNextPage;
  }, [hasNextPage, isFetching, fetchNextPage, live, messages.data]);

  // A link to one message (/sessions/{id}#msg_...): the thread is fetched after the page loaded,
  // so the browser found no anchor to scroll to; scroll to it once it is shown.
  const anchored = useRef(false);
  const shownCount = all.length;
  useEffect(() => {
    if (anchored.current || !shownCount) return;
    const hash = decodeURIComponent(window.location.hash.slice(1));
    const target = hash.startsWith("msg_") ? document.getElementById(hash) : null;
    if (!target) return;
    anchored.current = true;
    target.scrollIntoView({ block: "start" });
  }, [shownCount]);

  // When the last reply settles, read the header once more for its final counts and cost.
  const wasProcessing = useRef(false);
  useEffect(() => {
    if (wasProcessing.current && !processing) {
      // The session alone (exact): its messages are fresh already.
      void qc.invalidateQueries({ queryKey: apiKey(SESSION, { params: { session_id: sessionId } }), exact: true });
    }
    wasProcessing.current = processing;
  }, [processing, qc, sessionId]);

  // An id this organization has no session for: "Session not found", as the run page says it.
  if (session.error instanceof ConsoleApiError && session.error.code === "session_not_found") {
    return <DetailState query={session} of="session" id={sessionId} />;
  }

  return (
    <>
      <BackLink href="/sessions">Sessions</BackLink>
      <PageHeader
        title={
          <>
            Session <ShortId id={sessionId} className="text-lg" />
          </>
        }
        description={session.data ? `${session.data.agent_name} · ${session.data.channel}` : undefined}
        actions={
          <>
            <LiveToggle />
            <CopyButton value={sessionId} label="Copy session id" />
          </>
        }
      />
      {session.isPending ? (
        <Card title="Session">
          <div role="status" aria-label="Loading session" className="space-y-2">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
          </div>
        </Card>
      ) : session.error ? (
        <ErrorState error={session.error} title="The session could not be loaded" />
      ) : (
        <div data-testid="session-header">
          <SessionHeader session={session.data} />
        </div>
      )}

      {!session.error && (
        <section aria-labelledby="thread-heading" className="mt-6">
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h2 id="thread-heading" className="text-base font-semibold text-zinc-900">
              Messages
            </h2>
            {processing && (
              <p role="status" className="flex items-center gap-2 text-xs text-sky-800">
                <span aria-hidden className="size-2 animate-pulse rounded-full bg-sky-500" />
                <span>A reply is being produced{live ? "; updating live." : "; updates are paused."}</span>
              </p>
            )}
          </div>
          {messages.isPending ? (
            <SkeletonRows label="Loading messages" rows={3} />
          ) : messages.error ? (
            <ErrorState error={messages.error} title="Messages could not be loaded" />
          ) : all.length === 0 ? (
            <EmptyState title="No messages in this session">Messages appear here as the agent is triggered.</EmptyState>
          ) : (
            <>
              <MessageList messages={all} />
              {messages.hasNextPage && (
                <div className="mt-4 flex justify-center">
                  <Button
                    variant="secondary"
                    disabled={messages.isFetchingNextPage}
                    onClick={() => void messages.fetchNextPage()}
                  >
                    {messages.isFetchingNextPage ? "Loading…" : "Load more"}
                  </Button>
                </div>
              )}
            </>
          )}
        </section>
      )}
    </>
  );
}
