import type { Metadata } from "next";
import { Card, PageHeader } from "@/components/ui/misc";
import { requireConsolePage } from "@/lib/http/console-pages";

export const metadata: Metadata = { title: "Uploads" };

export default async function UploadsPage() {
  await requireConsolePage("/uploads");
  return (
    <>
      <PageHeader
        title="Uploads"
        description="Large files for your agents, referenced from triggers by their fi_ id."
      />
      <Card title="Resumable uploads are on their way">
        <div className="space-y-3 text-sm text-zinc-700">
          <p>
            Uploading from the dashboard, with progress, pause and resume, arrives with resumable uploads. Until then,
            upload through the API with an Access Key:
          </p>
          <pre className="overflow-x-auto rounded-md bg-zinc-900 p-3 text-xs text-zinc-100">
            {`curl -X POST https://<this-host>/api/agents/<agent_id>/upload \\
  -H "Authorization: Bearer ak_..." -F file=@orders.csv`}
          </pre>
          <p>
            The answer names the file (<code className="font-mono">fi_…</code>); send it in a trigger as{" "}
            <code className="font-mono">{`{"file_id": "fi_…"}`}</code>.
          </p>
        </div>
      </Card>
    </>
  );
}
