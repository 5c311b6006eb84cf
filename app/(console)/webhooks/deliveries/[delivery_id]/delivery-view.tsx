"use client";
// One callback delivery: the request as sent (URL, headers, JSON body), every attempt with the
// receiver's answer, and for admins "Redeliver". Polled every 2 s while the delivery is pending.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { Breadcrumb, DetailState } from "@/components/console/detail-state";
import { apiKey, request, useApi } from "@/components/console/use-api";
import { formatDate, formatMs } from "@/components/console/format";
import { useIsAdmin } from "@/components/console/me";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CopyButton, Details, Mono, PageHeader } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { Table, TBody, Td, Tr } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { HttpStatus, prettyJson, type DeliveryAttempt, type DeliveryDetail } from "../../shared";
import { useAllAgents } from "@/components/console/all-agents";

const codeBlock =
  "max-h-96 overflow-auto rounded-md bg-zinc-50 px-3 py-2 font-mono text-xs leading-relaxed whitespace-pre-wrap break-all text-zinc-900 ring-1 ring-zinc-200";

function Attempts({ attempts }: { attempts: DeliveryAttempt[] }) {
  if (attempts.length === 0) {
    return (
      <EmptyState title="Not tried yet">The worker sends the request shortly; this page updates by itself.</EmptyState>
    );
  }
  return (
    <Table
      label="Attempts"
      columns={[
        { label: "#", className: "text-right" },
        "Started",
        { label: "Duration", className: "hidden text-right sm:table-cell" },
        "Result",
        ["Response body", "md"],
      ]}
    >
      <TBody>
        {attempts.map((a) => (
          <Tr key={a.number} data-testid={`attempt-${a.number}`}>
            <Td className="text-right tabular-nums">{a.number}</Td>
            <Td className="whitespace-nowrap">
              <time dateTime={a.started_at} title={formatDate(a.started_at)}>
                {new Date(a.started_at).toLocaleTimeString("en-GB", { timeZone: "UTC" })} UTC
              </time>
              <div className="text-xs text-zinc-600 tabular-nums sm:hidden">{formatMs(a.duration_ms)}</div>
            </Td>
            <Td className="hidden text-right whitespace-nowrap tabular-nums sm:table-cell">
              {formatMs(a.duration_ms)}
            </Td>
            <Td className="min-w-[8rem]">
              {a.status_code !== null && (
                <span>
                  HTTP <HttpStatus code={a.status_code} />
                </span>
              )}
              {a.error && a.error !== `HTTP ${a.status_code}` && (
                <p className="text-xs break-words text-red-800">{a.error}</p>
              )}
              {a.response_body && (
                <details className="mt-1 md:hidden">
                  <summary className="cursor-pointer text-xs text-indigo-700">Response body</summary>
                  <pre className={`mt-1 ${codeBlock}`}>{a.response_body}</pre>
                </details>
              )}
            </Td>
            <Td className="hidden max-w-[28rem] md:table-cell">
              {a.response_body ? (
                <pre className={`max-h-32 ${codeBlock}`}>{a.response_body}</pre>
              ) : (
                <span className="text-zinc-600">—</span>
              )}
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

function RedeliverButton({ delivery }: { delivery: DeliveryDetail }) {
  const qc = useQueryClient();
  const toast = useToast();
  const redeliver = useMutation({
    mutationFn: () =>
      request("POST /api/v1/organizations/[org_id]/deliveries/[delivery_id]/redeliver", {
        params: { delivery_id: delivery.id },
      }),
    onSuccess: () => {
      toast({
        tone: "success",
        message: "Redelivery queued",
        detail: "The same event, with the same webhook-id, is sent again; this page shows the new attempt.",
      });
      // The delivery and the list.
      void qc.invalidateQueries({ queryKey: apiKey("GET /api/v1/organizations/[org_id]/deliveries") });
    },
    onError: (e) =>
      toast({ tone: "error", message: "The delivery was not queued again", detail: (e as Error).message }),
  });
  return (
    <Button disabled={redeliver.isPending} onClick={() => redeliver.mutate()}>
      {redeliver.isPending ? "Queuing…" : "Redeliver"}
    </Button>
  );
}

export function DeliveryView({ deliveryId }: { deliveryId: string }) {
  const admin = useIsAdmin();
  const delivery = useApi(
    "GET /api/v1/organizations/[org_id]/deliveries/[delivery_id]",
    { params: { delivery_id: deliveryId } },
    {
      refetchInterval: (q) => (q.state.data?.status === "pending" ? 2_000 : false),
    },
  );
  const agents = useAllAgents({ staleTime: 60_000 });

  if (!delivery.data) {
    return <DetailState query={delivery} of="delivery" id={deliveryId} />;
  }
  const d = delivery.data;
  const headers = Object.entries(d.request.headers);
  return (
    <div data-testid="delivery-page" data-syncing={delivery.isFetching ? "true" : "false"}>
      <Breadcrumb list={{ href: "/webhooks", label: "Webhooks" }} id={d.id} />
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            <span className="break-all">{d.event}</span>
            <span aria-live="polite" data-testid="delivery-status">
              <StatusBadge status={d.status} className="text-sm" />
            </span>
          </span>
        }
        description={
          d.status === "pending"
            ? "Being delivered: this page updates every 2 seconds."
            : d.status === "delivered"
              ? "The receiver answered with a 2xx status."
              : "Failed: the service no longer retries it (see the attempts). Fix the receiver, then redeliver."
        }
        actions={admin && <RedeliverButton delivery={d} />}
      />

      <Card title="Delivery">
        <Details
          items={[
            ["Event", d.event],
            ["Status", <StatusBadge key="s" status={d.status} />],
            ["Attempts", d.attempts.length],
            ["Last HTTP status", <HttpStatus key="h" code={d.last_status_code} />],
            [
              "Agent",
              d.agent_id ? (
                <Link
                  key="a"
                  href={`/agents/${d.agent_id}`}
                  className="text-indigo-700 underline hover:text-indigo-900"
                >
                  {agents.data?.agents.find((a) => a.agent_id === d.agent_id)?.name ?? <Mono>{d.agent_id}</Mono>}
                </Link>
              ) : (
                "—"
              ),
            ],
            [
              "Subject",
              d.subject_id.startsWith("run_") ? (
                <Link
                  key="r"
                  href={`/runs/${d.subject_id}`}
                  className="text-indigo-700 underline hover:text-indigo-900"
                >
                  <Mono>{d.subject_id}</Mono>
                </Link>
              ) : d.session_id ? (
                <Link
                  key="m"
                  href={`/sessions/${d.session_id}#${d.subject_id}`}
                  className="text-indigo-700 underline hover:text-indigo-900"
                >
                  <Mono>{d.subject_id}</Mono>
                </Link>
              ) : (
                <Mono key="m">{d.subject_id}</Mono>
              ),
            ],
            ["Created", formatDate(d.created_at)],
            ["Delivered", formatDate(d.delivered_at)],
            ["Next attempt", d.status === "pending" ? formatDate(d.next_attempt_at) : "—"],
          ]}
        />
      </Card>

      <Card title="Request" className="mt-6">
        <div className="space-y-4">
          <div>
            <p className="text-xs font-medium text-zinc-600">URL</p>
            <p className="mt-0.5 flex flex-wrap items-center gap-2 text-sm">
              <span className="font-mono text-xs font-semibold">POST</span>
              <Mono>
                <span data-testid="request-url">{d.url}</span>
              </Mono>
            </p>
          </div>
          <div>
            <p className="text-xs font-medium text-zinc-600">Headers</p>
            <dl className="mt-1 divide-y divide-zinc-100 rounded-md ring-1 ring-zinc-200" data-testid="request-headers">
              {headers.map(([k, v]) => (
                <div key={k} className="grid gap-x-4 px-3 py-1.5 sm:grid-cols-[12rem_1fr]">
                  <dt className="font-mono text-xs font-medium text-zinc-700">{k}</dt>
                  <dd className="font-mono text-xs break-all text-zinc-900">{v}</dd>
                </div>
              ))}
            </dl>
          </div>
          <div>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-xs font-medium text-zinc-600">Body (JSON, shown indented; sent compact)</p>
              <CopyButton value={d.request.body} label="Copy body" />
            </div>
            <pre tabIndex={0} aria-label="Request body" data-testid="request-body" className={`mt-1 ${codeBlock}`}>
              {prettyJson(d.request.body)}
            </pre>
          </div>
        </div>
      </Card>

      <Card title={`Attempts (${d.attempts.length})`} className="mt-6">
        <Attempts attempts={d.attempts} />
      </Card>
    </div>
  );
}
