"use client";
import { useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useState } from "react";
import { queryKeys, useAgentFiles, useAgents } from "@/components/console/queries";
import { formatDate, shortId } from "@/components/console/format";
import { ListResult } from "@/components/console/list-result";
import { useUrlParams, type CursorPaging } from "@/components/console/url-params";
import { Field, Select } from "@/components/ui/field";
import { Card, CopyButton, Mono, PageHeader } from "@/components/ui/misc";
import { EmptyState, ErrorState, Skeleton, SkeletonRows } from "@/components/ui/states";
import { Table, TBody, Td, Tr } from "@/components/ui/table";
import { formatBytes } from "./format";
import type { UploadedFile } from "./uploader";

const LIMIT = 20;

// Uppy (with tus-js-client and its CSS) loads only when an agent is chosen.
const Uploader = dynamic(() => import("./uploader").then((m) => m.Uploader), {
  ssr: false,
  loading: () => (
    <div role="status" aria-label="Loading the uploader">
      <Skeleton className="h-[400px] w-full" />
    </div>
  ),
});

function FinishedUploads({ files }: { files: UploadedFile[] }) {
  return (
    <div aria-live="polite">
      {files.length > 0 && (
        <>
          <h3 className="mt-4 text-sm font-semibold text-zinc-900">Finished uploads</h3>
          <ul className="mt-2 divide-y divide-zinc-100 rounded-md ring-1 ring-zinc-200">
            {files.map((f) => (
              <li
                key={f.file_id}
                data-testid="finished-upload"
                className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm"
              >
                <div className="min-w-0">
                  <p className="font-medium break-words text-zinc-900">{f.filename}</p>
                  <p className="text-xs text-zinc-600">
                    {formatBytes(f.size_bytes)} · <code className="font-mono break-all">{f.file_id}</code>
                  </p>
                </div>
                <CopyButton value={f.file_id} label="Copy file id" />
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-zinc-600">
            Send it in a trigger as <Mono>{`{"attachments": [{"file_id": "${files[0]?.file_id}"}]}`}</Mono>.
          </p>
        </>
      )}
    </div>
  );
}

function AgentFiles({ agentId, paging }: { agentId: string; paging: CursorPaging }) {
  const files = useAgentFiles({ agentId, limit: paging.limit, cursor: paging.state.cursor });
  return (
    <ListResult
      query={files}
      rows={(d) => d.files}
      noun="files"
      paging={paging}
      empty={
        <EmptyState title="No files for this agent yet">
          Upload a file above, then reference it in a trigger as{" "}
          <code className="font-mono text-xs whitespace-nowrap">{`{"file_id": "fi_..."}`}</code>.
        </EmptyState>
      }
    >
      {(rows) => (
        <Table label="Files" columns={["Name", "Size", ["Type", "md"], ["Created", "sm"], "File id"]}>
          <TBody>
            {rows.map((f) => (
              <Tr key={f.file_id}>
                <Td className="max-w-[16rem] min-w-[7rem] font-medium [overflow-wrap:anywhere]">{f.filename}</Td>
                <Td className="whitespace-nowrap">{formatBytes(f.size_bytes)}</Td>
                <Td className="hidden break-all md:table-cell">
                  <Mono>{f.content_type}</Mono>
                </Td>
                <Td className="hidden whitespace-nowrap sm:table-cell">{formatDate(f.created_at)}</Td>
                <Td>
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <Mono>{f.file_id}</Mono>
                    <CopyButton value={f.file_id} />
                  </div>
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </ListResult>
  );
}

export function UploadsView() {
  const url = useUrlParams({ agent_id: "" }, { limit: LIMIT });
  const agentId = url.filters.agent_id;
  const qc = useQueryClient();
  const [finished, setFinished] = useState<{ agentId: string; files: UploadedFile[] }>({ agentId: "", files: [] });
  const agents = useAgents();
  const list = agents.data?.agents ?? [];
  const agent = list.find((a) => a.agent_id === agentId);

  const onUploaded = (file: UploadedFile | null) => {
    void qc.invalidateQueries({ queryKey: queryKeys.agentFiles(agentId) });
    if (!file) return;
    setFinished((prev) => ({
      agentId,
      files: [file, ...(prev.agentId === agentId ? prev.files : []).filter((f) => f.file_id !== file.file_id)],
    }));
  };

  return (
    <>
      <PageHeader
        title="Uploads"
        description="Large files for your agents, sent in resumable pieces and referenced from triggers by their fi_ id."
      />
      {agents.isPending ? (
        <SkeletonRows rows={2} label="Loading agents" />
      ) : agents.error ? (
        <ErrorState error={agents.error} title="Agents could not be loaded" />
      ) : list.length === 0 ? (
        <EmptyState
          title="No agents yet"
          action={
            <Link href="/agents" className="text-sm font-medium text-indigo-700 hover:underline">
              Go to Agents
            </Link>
          }
        >
          Files belong to an agent. Create an agent first, then upload its files here.
        </EmptyState>
      ) : (
        <div className="space-y-6">
          <form
            aria-label="Choose an agent"
            className="rounded-lg bg-white p-4 ring-1 ring-zinc-200"
            onSubmit={(e) => e.preventDefault()}
          >
            <Field
              label="Agent"
              className="max-w-md"
              hint="Uploaded files belong to this agent; its triggers can reference them."
            >
              {({ id, describedBy }) => (
                <Select
                  id={id}
                  aria-describedby={describedBy}
                  value={agent ? agentId : ""}
                  onChange={(e) => url.update({ agent_id: e.target.value })}
                >
                  <option value="">Choose an agent…</option>
                  {list.map((a) => (
                    <option key={a.agent_id} value={a.agent_id}>
                      {a.name} ({a.kind})
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </form>
          {!agentId ? (
            <EmptyState title="Choose an agent to upload to">
              Pick the agent whose triggers will use the files. Uploads continue after a dropped connection and can be
              paused and resumed.
            </EmptyState>
          ) : !agent ? (
            <EmptyState title="This agent is not in your organization">
              The link names agent <Mono>{shortId(agentId)}</Mono>, which this organization does not have (or no longer
              has). Choose one of your agents above.
            </EmptyState>
          ) : (
            <>
              <Card title={`Upload files for ${agent.name}`}>
                <Uploader key={agentId} agentId={agentId} onUploaded={onUploaded} />
                <FinishedUploads files={finished.agentId === agentId ? finished.files : []} />
              </Card>
              <section aria-labelledby="agent-files-heading">
                <h2 id="agent-files-heading" className="mb-3 text-sm font-semibold text-zinc-900">
                  Files of {agent.name}
                </h2>
                <AgentFiles agentId={agentId} paging={url.paging} />
              </section>
            </>
          )}
        </div>
      )}
    </>
  );
}
