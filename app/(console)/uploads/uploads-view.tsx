"use client";
import { useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useState } from "react";
import { apiKey, request, useApiPage, type Answer } from "@/components/console/use-api";
import { formatDate, shortId } from "@/components/console/format";
import { ConfirmWrite } from "@/components/console/confirm-write";
import { actionsColumn, DataTable, type DataColumn } from "@/components/console/data-table";
import { ListFilters } from "@/components/console/filter-bar";
import { ListBody } from "@/components/console/list-page";
import { useIsAdmin } from "@/components/console/me";
import { SavedViews } from "@/components/console/saved-views";
import { useUrlParams, type CursorPaging } from "@/components/console/url-params";
import { Field, Select } from "@/components/ui/field";
import { Card, CopyButton, Mono, PageHeader } from "@/components/ui/misc";
import { EmptyState, ErrorState, Skeleton, SkeletonRows } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { formatBytes } from "./format";
import type { UploadedFile } from "./uploader";
import { useAllAgents } from "@/components/console/all-agents";

const FILES = "GET /api/v1/organizations/[org_id]/agents/[agent_id]/files";
type FileItem = Answer<typeof FILES>["files"][number];

const LIMIT = 20;
const NO_FILTERS = { agent_id: "", from: "", to: "" };

// Uppy (with tus-js-client and its CSS) loads only when an agent is chosen.
const Uploader = dynamic(() => import("./uploader").then((m) => m.Uploader), {
  ssr: false,
  loading: () => (
    <div role="status" aria-label="Loading the uploader">
      <Skeleton className="h-[400px] w-full" />
    </div>
  ),
});

/** How a trigger references an uploaded file: a workflow names it in an input, a conversation attaches it. */
function referenceExample(kind: string, fileId: string): string {
  return kind === "workflow"
    ? `{"document": {"file_id": "${fileId}"}}`
    : `{"message": "…", "attachments": [{"file_id": "${fileId}"}]}`;
}

function FinishedUploads({ files, kind }: { files: UploadedFile[]; kind: string }) {
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
            {kind === "workflow"
              ? "Send it in a trigger's inputs, as the value of a file input (here `document`): "
              : "Send it in a trigger as an attachment: "}
            <Mono>{referenceExample(kind, files[0]?.file_id ?? "fi_...")}</Mono>
          </p>
        </>
      )}
    </div>
  );
}

function AgentFiles({
  agentId,
  agentKind,
  paging,
  filters,
  filtered,
  onClear,
}: {
  agentId: string;
  agentKind: string;
  paging: CursorPaging;
  filters: Record<string, string>;
  filtered: boolean;
  onClear: () => void;
}) {
  const files = useApiPage(FILES, {
    params: { agent_id: agentId },
    query: { ...filters, limit: paging.limit, cursor: paging.state.cursor },
  });
  const isAdmin = useIsAdmin();
  const toast = useToast();
  const [deleting, setDeleting] = useState<FileItem | null>(null);
  const download = async (f: FileItem) => {
    try {
      const link = await request("GET /api/v1/organizations/[org_id]/agents/[agent_id]/files/[file_id]", {
        params: { agent_id: agentId, file_id: f.file_id },
      });
      window.location.assign(link.download_url);
    } catch (e) {
      toast({ tone: "error", message: `${f.filename} could not be downloaded`, detail: (e as Error).message });
    }
  };
  const columns: DataColumn<FileItem>[] = [
    {
      header: "Name",
      className: "max-w-[16rem] min-w-[7rem] font-medium [overflow-wrap:anywhere]",
      cell: (f) => (
        <>
          {f.filename}
          {/* On a phone the size and the id fold under the name: the table fits 375 px. */}
          <span className="block text-xs font-normal text-zinc-600 sm:hidden">{formatBytes(f.size_bytes)}</span>
          <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 font-normal sm:hidden">
            <Mono className="text-xs break-all">{f.file_id}</Mono>
            <CopyButton value={f.file_id} />
          </span>
        </>
      ),
    },
    { header: "Size", from: "sm", className: "whitespace-nowrap", cell: (f) => formatBytes(f.size_bytes) },
    { header: "Type", from: "md", className: "break-all", cell: (f) => <Mono>{f.content_type}</Mono> },
    { header: "Created", from: "sm", className: "whitespace-nowrap", cell: (f) => formatDate(f.created_at) },
    {
      header: "File id",
      from: "sm",
      cell: (f) => (
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <Mono className="break-all">{f.file_id}</Mono>
          <CopyButton value={f.file_id} />
        </div>
      ),
    },
    actionsColumn(
      (f) => f.filename,
      (f) => [
        { label: "Download", onClick: () => void download(f) },
        isAdmin && { label: "Delete", onClick: () => setDeleting(f) },
      ],
    ),
  ];
  return (
    <>
      <ListBody
        query={files}
        rows={(d) => d.files}
        noun="files"
        paging={paging}
        filtered={filtered}
        onClear={onClear}
        noMatch="No file of this agent was uploaded in this time."
        none={
          <EmptyState title="No files for this agent yet">
            Upload a file above, then reference it in a trigger as{" "}
            <code className="font-mono text-xs break-all">{referenceExample(agentKind, "fi_...")}</code>.
          </EmptyState>
        }
      >
        {(rows) => <DataTable label="Files" columns={columns} rows={rows} rowKey={(f) => f.file_id} />}
      </ListBody>
      <ConfirmWrite
        target={deleting}
        onClose={() => setDeleting(null)}
        title="Delete this file?"
        description={
          <>
            <strong className="break-words">{deleting?.filename}</strong> is removed for good: triggers that reference
            its id fail with file_not_found.
          </>
        }
        verb="delete"
        noun="file"
        write={(f) =>
          request("DELETE /api/v1/organizations/[org_id]/agents/[agent_id]/files/[file_id]", {
            params: { agent_id: agentId, file_id: f.file_id },
          })
        }
        done={(_, f) => ({ message: `${f.filename} deleted` })}
        invalidates={() => [apiKey(FILES, { params: { agent_id: agentId } })]}
      />
    </>
  );
}

export function UploadsView() {
  const url = useUrlParams(NO_FILTERS, { limit: LIMIT });
  const { agent_id: _agent, ...dates } = url.filters;
  const datesSet = Boolean(dates.from || dates.to);
  const agentId = url.filters.agent_id;
  const qc = useQueryClient();
  const [finished, setFinished] = useState<{ agentId: string; files: UploadedFile[] }>({ agentId: "", files: [] });
  const agents = useAllAgents();
  const list = agents.data?.agents ?? [];
  const agent = list.find((a) => a.agent_id === agentId);

  const onUploaded = (file: UploadedFile | null) => {
    void qc.invalidateQueries({ queryKey: apiKey(FILES, { params: { agent_id: agentId } }) });
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
        actions={<SavedViews list="files" current={url.set} onApply={url.replace} />}
      />
      {agents.isPending ? (
        <SkeletonRows rows={2} label="Loading agents" />
      ) : agents.error ? (
        <ErrorState error={agents.error} title="Agents could not be loaded" />
      ) : list.length === 0 ? (
        <EmptyState title="No agents yet" link={{ href: "/agents", label: "Go to Agents" }}>
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
                <FinishedUploads files={finished.agentId === agentId ? finished.files : []} kind={agent.kind} />
              </Card>
              <section aria-labelledby="agent-files-heading">
                <h2 id="agent-files-heading" className="mb-3 text-sm font-semibold text-zinc-900">
                  Files of {agent.name}
                </h2>
                <ListFilters
                  label="Filter files"
                  fields={[{ kind: "dates" }]}
                  values={url.filters}
                  onChange={url.update}
                  filtered={datesSet}
                  onClear={() => url.update({ from: "", to: "" })}
                />
                <AgentFiles
                  agentId={agentId}
                  agentKind={agent.kind}
                  paging={url.paging}
                  filters={dates}
                  filtered={datesSet}
                  onClear={() => url.update({ from: "", to: "" })}
                />
              </section>
            </>
          )}
        </div>
      )}
    </>
  );
}
