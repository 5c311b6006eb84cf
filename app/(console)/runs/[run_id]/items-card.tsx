"use client";
// A run's items in index order, a page at a time, optionally of one status.
import { keepPreviousData } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { formatNumber } from "@/components/console/format";
import { ListResult } from "@/components/console/list-result";
import { usePagingState } from "@/components/console/url-params";
import { useApi } from "@/components/console/use-api";
import { statusLabel, StatusBadge } from "@/components/ui/badge";
import { Select } from "@/components/ui/field";
import { Card } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { Table, TBody, Td, Tr } from "@/components/ui/table";
import { compactJson, ITEM_STATUSES, type RunItem } from "../shared";
import { StepTimeline, TimelineToggle } from "./step-timeline";

const LIMIT = 25;

function JsonCell({ item }: { item: RunItem }) {
  const shown = item.result ?? item.data;
  return (
    <details className="group max-w-[32rem] min-w-[9rem]">
      <summary className="cursor-pointer list-none rounded font-mono text-xs break-all text-zinc-800 hover:text-indigo-700 [&::-webkit-details-marker]:hidden">
        <span aria-hidden className="mr-1 inline-block text-zinc-500 group-open:rotate-90">
          ▸
        </span>
        <span className="sr-only">Show the data of item {item.index}: </span>
        {compactJson(shown)}
      </summary>
      <div className="mt-2 space-y-2">
        {item.result != null && (
          <div>
            <p className="text-xs font-medium text-zinc-600">Result</p>
            <pre className="max-h-64 overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs break-all whitespace-pre-wrap ring-1 ring-zinc-200">
              {JSON.stringify(item.result, null, 2)}
            </pre>
          </div>
        )}
        <div>
          <p className="text-xs font-medium text-zinc-600">Input data</p>
          <pre className="max-h-64 overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs break-all whitespace-pre-wrap ring-1 ring-zinc-200">
            {JSON.stringify(item.data, null, 2)}
          </pre>
        </div>
      </div>
    </details>
  );
}

/** `version` changes whenever the run's status or counts do: the items are fetched again then, and only then. */
export function ItemsCard({ runId, version, total }: { runId: string; version: string; total: number }) {
  const [status, setStatus] = useState("");
  const paging = usePagingState(LIMIT);
  // Fetched again when the run's status and counts change, and only then.
  const items = useApi(
    "GET /api/v1/organizations/[org_id]/runs/[run_id]/items",
    { params: { run_id: runId }, query: { limit: LIMIT, cursor: paging.state.cursor, status } },
    { version, placeholderData: keepPreviousData },
  );
  /** The items whose step timeline is open. */
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <div data-syncing={items.isFetching ? "true" : "false"}>
      <Card
        title={`Items (${formatNumber(total)})`}
        actions={
          <label className="flex items-center gap-2 text-sm font-medium text-zinc-800">
            Item status
            <span className="w-40">
              <Select
                value={status}
                onChange={(e) => {
                  setStatus(e.target.value);
                  paging.reset();
                }}
              >
                <option value="">All</option>
                {ITEM_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {statusLabel(s)}
                  </option>
                ))}
              </Select>
            </span>
          </label>
        }
      >
        <ListResult
          query={items}
          rows={(d) => d.items}
          noun="items"
          paging={paging}
          order="position"
          empty={
            <EmptyState title={status ? `No ${statusLabel(status)} items` : "No items yet"}>
              {status
                ? "Choose another status, or All."
                : "Items appear as the run reads its input; a run without an items source has one item, its inputs."}
            </EmptyState>
          }
        >
          {(rows) => (
            <Table
              label="Items"
              columns={[
                { label: "#", className: "w-12 text-right" },
                "Status",
                ["Step", "sm"],
                ["Error", "md"],
                "Data / result",
                ["Timeline", "sm"],
              ]}
            >
              <TBody>
                {rows.map((i) => (
                  <Fragment key={i.item_id}>
                    <Tr>
                      <Td className="text-right tabular-nums">{i.index}</Td>
                      <Td>
                        <StatusBadge status={i.status} />
                        {i.resolution && <p className="mt-1 text-xs text-zinc-600">{i.resolution}</p>}
                        {i.error && (
                          <p className="mt-1 max-w-[10rem] text-xs break-words text-red-800 md:hidden">{i.error}</p>
                        )}
                        {/* On a phone the toggle sits here: the table then fits, and the timeline under it too. */}
                        <div className="mt-1 sm:hidden">
                          <TimelineToggle item={i} open={open.has(i.item_id)} onToggle={() => toggle(i.item_id)} />
                        </div>
                      </Td>
                      <Td className="hidden font-mono text-xs sm:table-cell">{i.step_id ?? "—"}</Td>
                      <Td className="hidden max-w-[16rem] min-w-[8rem] text-xs break-words text-red-800 md:table-cell">
                        {i.error ?? ""}
                      </Td>
                      <Td>
                        <JsonCell item={i} />
                      </Td>
                      <Td className="hidden sm:table-cell">
                        <TimelineToggle item={i} open={open.has(i.item_id)} onToggle={() => toggle(i.item_id)} />
                      </Td>
                    </Tr>
                    {open.has(i.item_id) && (
                      <Tr id={`timeline-${i.item_id}`} className="bg-zinc-50/60">
                        <Td colSpan={6}>
                          <StepTimeline index={i.index} entries={i.timeline} />
                        </Td>
                      </Tr>
                    )}
                  </Fragment>
                ))}
              </TBody>
            </Table>
          )}
        </ListResult>
      </Card>
    </div>
  );
}
