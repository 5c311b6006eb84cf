"use client";
// The "Views" menu of a list page's header (docs/console.md, "Saved views"): the member's own and
// the organization's shared views of the list (apply one: its filters replace the URL's), saving
// the current filters under a name (personal or shared), and deleting a view the member may change
// (their own; an admin also a shared one).
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ViewList, ViewRecord as SavedView } from "@/lib/views/schemas";
import { ConsoleApiError } from "./api";
import { apiKey, useApi, useApiMutation } from "./use-api";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { CheckboxField, TextField } from "../ui/field";
import { ErrorState, SkeletonRows } from "../ui/states";

const VIEWS = "GET /api/v1/organizations/[org_id]/views";

export function SavedViews({
  list,
  current,
  onApply,
}: {
  list: ViewList;
  /** The list's filters as the URL holds them (defaults left out). */
  current: Record<string, string>;
  /** Replaces the list's filters with the view's. */
  onApply: (filters: Record<string, string>) => void;
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [shared, setShared] = useState(false);
  const [deleting, setDeleting] = useState<SavedView | null>(null);
  const client = useQueryClient();
  const views = useApi(VIEWS, { query: { list, limit: 200 } });
  const refresh = () => client.invalidateQueries({ queryKey: apiKey(VIEWS, { query: { list, limit: 200 } }) });
  const save = useApiMutation("POST /api/v1/organizations/[org_id]/views", {
    onSuccess: () => {
      setName("");
      setShared(false);
      return refresh();
    },
  });
  const remove = useApiMutation("DELETE /api/v1/organizations/[org_id]/views/[view_id]", {
    onSuccess: () => {
      setDeleting(null);
      return refresh();
    },
  });
  const nameError = save.error instanceof ConsoleApiError ? save.error.fields.name : undefined;
  const close = () => {
    setOpen(false);
    setDeleting(null);
    save.reset();
    remove.reset();
  };
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} aria-haspopup="dialog">
        Views
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title="Saved views"
        description="Filters of this list saved under a name: yours, and those shared with the organization."
        footer={
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
        }
      >
        {views.isPending ? (
          <SkeletonRows label="Loading views" />
        ) : views.error ? (
          <ErrorState error={views.error} title="Views could not be loaded" />
        ) : views.data.views.length === 0 ? (
          <p className="text-sm text-zinc-600">No saved views of this list yet.</p>
        ) : (
          <ul aria-label="Views" className="divide-y divide-zinc-100">
            {views.data.views.map((v) => (
              <li key={v.view_id} className="flex flex-wrap items-center gap-2 py-2">
                <span className="min-w-0 flex-1 font-medium break-words">{v.name}</span>
                {v.shared && <Badge tone="indigo">shared</Badge>}
                <Button
                  size="sm"
                  onClick={() => {
                    onApply(v.filters);
                    close();
                  }}
                  aria-label={`Apply view ${v.name}`}
                >
                  Apply
                </Button>
                {v.editable &&
                  (deleting?.view_id === v.view_id ? (
                    <Button
                      size="sm"
                      variant="danger"
                      disabled={remove.isPending}
                      onClick={() => remove.mutate({ params: { view_id: v.view_id } })}
                      aria-label={`Confirm deleting view ${v.name}`}
                    >
                      {remove.isPending ? "Deleting…" : "Really delete"}
                    </Button>
                  ) : (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setDeleting(v)}
                      aria-label={`Delete view ${v.name}`}
                    >
                      Delete
                    </Button>
                  ))}
              </li>
            ))}
          </ul>
        )}
        {remove.error && <ErrorState error={remove.error} title="The view could not be deleted" />}
        <form
          aria-label="Save the current filters"
          className="mt-4 space-y-3 border-t border-zinc-200 pt-4"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ body: { list, name, filters: current, shared } });
          }}
        >
          <TextField
            label="Save the current filters as"
            value={name}
            maxLength={80}
            required
            error={nameError}
            onValue={setName}
          />
          <CheckboxField label="Share with the organization" checked={shared} onChecked={setShared} />
          {save.error && !nameError && <ErrorState error={save.error} title="The view could not be saved" />}
          <Button type="submit" disabled={save.isPending || !name.trim()}>
            {save.isPending ? "Saving…" : "Save view"}
          </Button>
        </form>
      </Dialog>
    </>
  );
}
