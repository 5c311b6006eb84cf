"use client";
// What the review dialog shows in each of its modes: the item's data (viewing), the JSON editor
// (editing the data before approving), or the reason field (rejecting, then confirming).
import { JsonEditor, type JsonLineError } from "@/components/console/json-editor";
import { ReasonField, ReviewItemData } from "@/components/console/review-item";
import type { Mode } from "./review-dialog-footer";

export function ReviewDialogBody(p: {
  mode: Mode;
  data: unknown;
  text: string;
  onText: (text: string) => void;
  jsonError: JsonLineError | null;
  reason: string;
  onReason: (reason: string) => void;
  reasonError: string | null;
  confirming: boolean;
}) {
  if (p.mode === "edit")
    return (
      <JsonEditor
        label="Item data (JSON)"
        value={p.text}
        rows={12}
        onChange={p.onText}
        errors={p.jsonError ? [p.jsonError] : []}
        hint="The item continues through the remaining steps with this data; the change is kept with the decision."
      />
    );
  if (p.mode === "reject")
    return (
      <ReasonField
        error={p.reasonError}
        hint={
          p.confirming
            ? "The item ends failed and will not run again. Press “Yes, reject this item” to confirm."
            : "Required. Shown on the item, in the run's review trail and in the approvals API."
        }
        rows={4}
        value={p.reason}
        onValue={p.onReason}
      />
    );
  return <ReviewItemData data={p.data} className="max-h-80 bg-zinc-50" />;
}
