"use client";
// One version of an agent as stored (credentials redacted), read-only: the Versions tab's View.
import { formatDate } from "@/components/console/format";
import { JsonEditor } from "@/components/console/json-editor";
import { useApi } from "@/components/console/use-api";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Details } from "@/components/ui/misc";
import { ErrorState, Skeleton } from "@/components/ui/states";

/** One version as stored (credentials redacted), read-only. */
export function VersionDialog({
  agentId,
  version,
  onClose,
}: {
  agentId: string;
  version: number | null;
  onClose: () => void;
}) {
  const q = useApi(
    "GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]",
    { params: { agent_id: agentId, version: version ?? "" } },
    { enabled: version !== null },
  );
  const v = q.data;
  return (
    <Dialog
      open={version !== null}
      onClose={onClose}
      title={`Version ${version ?? ""}`}
      className="max-w-3xl"
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {q.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : q.error ? (
        <ErrorState error={q.error} title="The version could not be loaded" />
      ) : (
        <div className="space-y-4">
          <Details
            items={[
              ["State", <StatusBadge key="s" status={v!.state} />],
              ["Made by", v!.created_by.label ?? v!.created_by.type],
              ["Made", formatDate(v!.created_at)],
              ["Made from", v!.base_version ? `version ${v!.base_version}` : "—"],
              ["Published", formatDate(v!.published_at)],
              ["Note", v!.note ?? "—"],
            ]}
          />
          <JsonEditor
            label="Configuration (JSON, read-only)"
            value={JSON.stringify(
              { runtime: v!.runtime, workflow: v!.workflow, callback_url: v!.callback_url },
              null,
              2,
            )}
            readOnly
            rows={16}
          />
        </div>
      )}
    </Dialog>
  );
}
