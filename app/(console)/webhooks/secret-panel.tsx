"use client";
// The organization's signing secret: whether one is configured, and for admins creating or rotating
// it. A new secret is shown exactly once (the server keeps it only to sign); a reload never shows it.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiKey, request, useApi } from "@/components/console/use-api";
import { formatDate } from "@/components/console/format";
import { useIsAdmin } from "@/components/console/me";
import { ShownOnceDialog } from "@/components/console/shown-once-dialog";
import { Button } from "@/components/ui/button";
import { Card, Details, Mono } from "@/components/ui/misc";
import { ErrorState, Skeleton } from "@/components/ui/states";
import { Code, type RotatedSecret } from "./shared";

const SNIPPET = `import { Webhook } from "standardwebhooks";

// secret: the "whsec_…" value, kept in your secret store.
const wh = new Webhook(secret);
// rawBody: the request body as received (a string, before
// JSON parsing); headers: webhook-id, webhook-timestamp and
// webhook-signature. Throws when the signature is wrong or
// the timestamp is more than 5 minutes off.
const event = wh.verify(rawBody, headers);`;

/** How a receiver checks a callback, with the standardwebhooks package. */
export function VerifySnippet() {
  return (
    <div className="space-y-2">
      <p className="text-xs text-zinc-600">
        Verify every request with the <Code>standardwebhooks</Code> package (<Code>npm install standardwebhooks</Code>;
        libraries exist for other languages too):
      </p>
      <pre
        tabIndex={0}
        aria-label="Verification example"
        className="overflow-x-auto rounded-md bg-zinc-900 px-3 py-2 font-mono text-xs leading-relaxed text-zinc-100"
      >
        <code>{SNIPPET}</code>
      </pre>
    </div>
  );
}

/** Creating or rotating the secret, after a confirmation that says what rotation breaks; then the new value, once. */
function RotateDialog({ open, configured, onClose }: { open: boolean; configured: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  return (
    <ShownOnceDialog
      open={open}
      onClose={onClose}
      form={{
        title: configured ? "Rotate the signing secret?" : "Create a signing secret?",
        description: configured
          ? "The current secret stops signing at once: every receiver that verifies callbacks must be updated with the new secret, or it will reject them."
          : "Callbacks are signed with this secret. Receivers that verify callbacks need it.",
        formId: "rotate-signing-secret",
        submitLabel: configured ? "Rotate secret" : "Create secret",
        pendingLabel: configured ? "Rotating…" : "Creating…",
        errorTitle: "The secret was not changed",
        danger: configured,
      }}
      write={() => request("POST /api/v1/organizations/[org_id]/webhook-secret", {})}
      onWritten={() =>
        void qc.invalidateQueries({ queryKey: apiKey("GET /api/v1/organizations/[org_id]/webhook-secret") })
      }
      shown={(secret: RotatedSecret) => ({
        title: "Copy your new signing secret",
        description:
          "This is the only time the secret is shown. Store it where your receivers read their configuration.",
        value: secret.secret,
        testId: "signing-secret",
        copyLabel: "Copy secret",
        after: <VerifySnippet />,
        wide: true,
      })}
    >
      {() => (
        <p className="text-sm">The new secret is shown once, right after this step. Have your secret manager ready.</p>
      )}
    </ShownOnceDialog>
  );
}

export function SecretPanel() {
  const admin = useIsAdmin();
  const [rotating, setRotating] = useState(false);
  const info = useApi("GET /api/v1/organizations/[org_id]/webhook-secret", {});
  const configured = Boolean(info.data?.configured);
  return (
    <div data-testid="secret-panel">
      <Card
        title="Signing secret"
        actions={
          admin &&
          info.data && (
            <Button variant="secondary" size="sm" onClick={() => setRotating(true)}>
              {configured ? "Rotate secret" : "Create secret"}
            </Button>
          )
        }
      >
        {info.isPending ? (
          <div role="status" aria-label="Loading the signing secret" className="space-y-2">
            <Skeleton className="h-5 w-64 max-w-full" />
            <Skeleton className="h-5 w-48 max-w-full" />
          </div>
        ) : info.error ? (
          <ErrorState error={info.error} title="The signing secret could not be loaded" />
        ) : (
          <div className="space-y-4" data-testid="secret-info">
            <p className="text-sm text-zinc-700">
              Every callback carries <Code>webhook-id</Code>, <Code>webhook-timestamp</Code> and{" "}
              <Code>webhook-signature</Code> headers (Standard Webhooks), signed with this organization&apos;s secret.
            </p>
            <Details
              items={[
                ["Status", info.data.configured ? "Configured" : "Not configured"],
                ["Created", formatDate(info.data.created_at)],
                ["Ends with", info.data.hint ? <Mono>…{info.data.hint}</Mono> : "—"],
              ]}
            />
            {!admin && (
              <p className="rounded-md bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
                You have read access. Admins create and rotate the secret.
              </p>
            )}
            <details className="text-sm">
              <summary className="cursor-pointer font-medium text-indigo-700">How receivers verify callbacks</summary>
              <div className="mt-2">
                <VerifySnippet />
              </div>
            </details>
          </div>
        )}
        {admin && <RotateDialog open={rotating} configured={configured} onClose={() => setRotating(false)} />}
      </Card>
    </div>
  );
}
