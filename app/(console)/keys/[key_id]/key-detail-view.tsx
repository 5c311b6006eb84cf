"use client";
// One Access Key: its settings and state (expiry, roll links with the grace left), what it is used
// for (the usage preview), and the admin's actions on it.
import { useState } from "react";
import { UsageCharts } from "@/components/console/usage-charts-lazy";
import { Breadcrumb, DetailState } from "@/components/console/detail-state";
import { formatDate, relative } from "@/components/console/format";
import { useIsAdmin } from "@/components/console/me";
import { useApi } from "@/components/console/use-api";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, Details, Mono, PageHeader } from "@/components/ui/misc";
import {
  EditKeyDialog,
  expiryText,
  KeyStateBadge,
  RevokeDialog,
  RollDialog,
  RollLinks,
  UsagePreview,
} from "../key-parts";
import { useAllAgents } from "@/components/console/all-agents";

export function KeyDetailView({ keyId }: { keyId: string }) {
  const admin = useIsAdmin();
  const key = useApi("GET /api/v1/organizations/[org_id]/access-keys/[key_id]", { params: { key_id: keyId } });
  const agents = useAllAgents();
  const [dialog, setDialog] = useState<"roll" | "edit" | "revoke" | null>(null);
  if (!key.data) return <DetailState query={key} of="key" id={keyId} />;
  const k = key.data;
  const names = new Map(agents.data?.agents.map((a) => [a.agent_id, a.name]) ?? []);
  return (
    <>
      <Breadcrumb list={{ href: "/keys", label: "Access Keys" }} id={k.key_id} />
      <PageHeader
        title={k.name}
        description={<RollLinks k={k} />}
        actions={
          admin &&
          !k.revoked_at && (
            <div className="flex flex-wrap gap-2">
              {!k.rolled_to_key_id && <Button onClick={() => setDialog("roll")}>Roll key</Button>}
              <Button variant="secondary" onClick={() => setDialog("edit")}>
                Change
              </Button>
              <Button variant="danger" onClick={() => setDialog("revoke")}>
                Revoke
              </Button>
            </div>
          )
        }
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Key">
          <Details
            items={[
              ["Status", <KeyStateBadge key="s" k={k} />],
              ["Key", <Mono key="m">{k.start}…</Mono>],
              [
                "Permissions",
                k.permissions.length ? (
                  <span className="flex flex-wrap gap-1">
                    {k.permissions.map((p) => (
                      <Badge key={p}>{p}</Badge>
                    ))}
                  </span>
                ) : (
                  "none"
                ),
              ],
              ["Agents", k.agent_ids ? k.agent_ids.map((id) => names.get(id) ?? id).join(", ") : "every agent"],
              ["Rate limit", k.rate_limit_per_minute === null ? "service default" : `${k.rate_limit_per_minute}/min`],
              [
                "Expiry",
                k.revoked_at
                  ? "—"
                  : `${expiryText(k.expires_at)}${k.expires_at ? ` (${formatDate(k.expires_at)})` : ""}`,
              ],
              ["Created", formatDate(k.created_at)],
              ["Last used", k.last_used_at ? relative(k.last_used_at) : "never"],
              ...(k.revoke_at && !k.revoked_at
                ? [["Old key refused from", formatDate(k.revoke_at)] as [string, string]]
                : []),
              ...(k.revoked_at ? [["Revoked", formatDate(k.revoked_at)] as [string, string]] : []),
            ]}
          />
        </Card>
        <Card title="What uses it">
          <UsagePreview keyId={k.key_id} />
        </Card>
      </div>
      <UsageCharts key_id={k.key_id} className="mt-6" />
      {admin && <RollDialog target={dialog === "roll" ? k : null} onClose={() => setDialog(null)} />}
      {admin && <EditKeyDialog target={dialog === "edit" ? k : null} onClose={() => setDialog(null)} />}
      {admin && <RevokeDialog target={dialog === "revoke" ? k : null} onClose={() => setDialog(null)} />}
    </>
  );
}
