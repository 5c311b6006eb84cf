"use client";
// The console lists' one filter field set (docs/console.md, "List filters"): a date range, an agent,
// a status, an end user's id, an environment, "has error", or a list's own choice (the audit log's
// action). Each list names the fields it takes; the values live in the URL (useUrlParams). A value
// the URL holds that is not one of a field's choices shows that value with an error (the server
// answers 400 invalid_request for it too), never a field that silently reads "Any".
import { useId, useState, type ReactNode } from "react";
import { shortId } from "./format";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { Field, Input, Select } from "../ui/field";

/**
 * A list's filter form (role search): its fields, and "Clear filters" while one is set. On a phone
 * the fields fold behind a "Filters" button (with how many are set), so that the rows start on the
 * first screen; from the sm width on they always show.
 */
export function FilterBar({
  label,
  filtered,
  onClear,
  grid,
  children,
}: {
  /** The form's accessible name, e.g. "Filter runs". */
  label: string;
  filtered: boolean;
  onClear: () => void;
  /** Fields in a grid of up to four columns (else in a row that wraps). */
  grid?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="mb-4">
      <div className="mb-2 flex items-center gap-2 sm:hidden">
        <Button variant="secondary" size="sm" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
          {open ? "Hide filters" : "Filters"}
          {filtered && !open && <span className="text-zinc-600"> (set)</span>}
        </Button>
        {filtered && !open && (
          <Button variant="ghost" size="sm" onClick={onClear}>
            Clear filters
          </Button>
        )}
      </div>
      <form
        id={id}
        role="search"
        aria-label={label}
        className={cn(
          "gap-3 rounded-lg bg-white p-4 ring-1 ring-zinc-200",
          grid ? "grid-cols-1 sm:grid sm:grid-cols-2 lg:grid-cols-4" : "flex-wrap items-end sm:flex",
          open ? (grid ? "grid" : "flex") : "hidden",
        )}
        onSubmit={(e) => e.preventDefault()}
      >
        {children}
        {filtered && (
          <div className={grid ? "sm:col-span-2 lg:col-span-4" : "mb-1"}>
            <Button variant="ghost" size="sm" onClick={onClear}>
              Clear filters
            </Button>
          </div>
        )}
      </form>
    </div>
  );
}

type Option = readonly [value: string, label: string];

export type FilterField =
  | { kind: "dates" }
  | { kind: "agent"; agents: readonly { agent_id: string; name: string }[]; pending: boolean; any?: string }
  | { kind: "status"; options: readonly Option[] }
  | { kind: "user"; hint?: string }
  | { kind: "environment" }
  | { kind: "has_error"; label?: string }
  | {
      kind: "choice";
      name: string;
      label: string;
      any: string;
      groups: readonly { label: string; options: readonly Option[] }[];
    };

const DATE = /^\d{4}-\d\d-\d\d$/;
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/i;
const AGENT_ID = /^agt_[0-9A-Za-z]{22}$/;

/** The message for a date value the server would refuse, else undefined. */
const badDate = (v: string) =>
  v && !(DATE.test(v) || DATE_TIME.test(v)) ? "Not a date (yyyy-mm-dd) or RFC 3339 time" : undefined;
/** A date input's value: the date part of a yyyy-mm-dd or RFC 3339 value. */
const dateOf = (v: string) => (DATE.test(v.slice(0, 10)) ? v.slice(0, 10) : "");

const ENVIRONMENTS: Option[] = [
  ["", "All"],
  ["production", "Production (API)"],
  ["draft", "Draft (test console)"],
];
const YES_NO: Option[] = [
  ["", "Any"],
  ["true", "With errors"],
  ["false", "Without errors"],
];

/** A select whose value may be one the choices lack: shown, and marked invalid. */
function ChoiceField({
  label,
  value,
  options,
  groups,
  unknownLabel,
  onChange,
  className,
}: {
  label: string;
  value: string;
  options?: readonly Option[];
  groups?: readonly { label: string; options: readonly Option[] }[];
  /** How to show a value the choices lack that is still acceptable (an agent still loading). */
  unknownLabel?: string | null;
  onChange: (v: string) => void;
  className?: string;
}) {
  const all = [...(options ?? []), ...(groups ?? []).flatMap((g) => g.options)];
  const known = all.some(([v]) => v === value);
  const error = value && !known && unknownLabel == null ? `Unknown ${label.toLowerCase()}: “${value}”` : undefined;
  return (
    <Field label={label} error={error} className={className}>
      {({ id, describedBy, invalid }) => (
        <Select
          id={id}
          aria-describedby={describedBy}
          invalid={invalid}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        >
          {options?.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
          {groups?.map((g) => (
            <optgroup key={g.label} label={g.label}>
              {g.options.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </optgroup>
          ))}
          {value && !known && <option value={value}>{unknownLabel ?? value}</option>}
        </Select>
      )}
    </Field>
  );
}

/** A text filter applied on Enter or when the field is left (not on every key). */
function TextFilter({
  label,
  value,
  hint,
  onChange,
}: {
  label: string;
  value: string;
  hint?: ReactNode;
  onChange: (v: string) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft !== null && draft.trim() !== value) onChange(draft.trim());
    setDraft(null);
  };
  return (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => (
        <Input
          id={id}
          aria-describedby={describedBy}
          value={draft ?? value}
          maxLength={256}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === "Enter") commit();
          }}
        />
      )}
    </Field>
  );
}

function DateFilter({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const error = badDate(value);
  return (
    <Field label={label} error={error} hint={!error && value && !DATE.test(value) ? value : undefined}>
      {({ id, describedBy, invalid }) => (
        <Input
          id={id}
          type="date"
          aria-describedby={describedBy}
          invalid={invalid}
          value={dateOf(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

export interface ListFiltersProps {
  /** The form's accessible name, e.g. "Filter runs". */
  label: string;
  fields: readonly FilterField[];
  values: Readonly<Record<string, string>>;
  onChange: (changes: Record<string, string>) => void;
  filtered: boolean;
  onClear: () => void;
}

/** A list's filter form: the fields it names, in a grid. */
export function ListFilters({ label, fields, values, onChange, filtered, onClear }: ListFiltersProps) {
  const v = (name: string) => values[name] ?? "";
  const set = (name: string) => (value: string) => onChange({ [name]: value });
  return (
    <FilterBar label={label} grid filtered={filtered} onClear={onClear}>
      {fields.map((f) => {
        switch (f.kind) {
          case "dates":
            return [
              <DateFilter key="from" label="From" value={v("from")} onChange={set("from")} />,
              <DateFilter key="to" label="To (through)" value={v("to")} onChange={set("to")} />,
            ];
          case "agent": {
            const id = v("agent_id");
            // An agent of the URL not (yet) in the list: loading, or a well-formed id of another kind.
            const unknownLabel = f.pending ? "Loading…" : AGENT_ID.test(id) ? shortId(id) : null;
            return (
              <ChoiceField
                key="agent"
                label="Agent"
                value={id}
                options={[["", f.any ?? "All agents"], ...f.agents.map((a): Option => [a.agent_id, a.name])]}
                unknownLabel={unknownLabel}
                onChange={set("agent_id")}
              />
            );
          }
          case "status":
            return (
              <ChoiceField
                key="status"
                label="Status"
                value={v("status")}
                options={[["", "All statuses"], ...f.options]}
                onChange={set("status")}
              />
            );
          case "user":
            return (
              <TextFilter key="user" label="User id" hint={f.hint} value={v("user_id")} onChange={set("user_id")} />
            );
          case "environment":
            return (
              <ChoiceField
                key="environment"
                label="Environment"
                value={v("environment")}
                options={ENVIRONMENTS}
                onChange={set("environment")}
              />
            );
          case "has_error":
            return (
              <ChoiceField
                key="has_error"
                label={f.label ?? "Errors"}
                value={v("has_error")}
                options={YES_NO}
                onChange={set("has_error")}
              />
            );
          case "choice":
            return (
              <ChoiceField
                key={f.name}
                label={f.label}
                value={v(f.name)}
                options={[["", f.any]]}
                groups={f.groups}
                onChange={set(f.name)}
              />
            );
        }
      })}
    </FilterBar>
  );
}
