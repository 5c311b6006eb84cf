"use client";
// A JSON editor for the console: a monospace textarea with a line gutter that marks the lines
// an error points at, and the helpers that turn a syntax error or an API field path
// (`workflow.steps.2.when`) into a line of the text (jsonc-parser's tree keeps the offsets).
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { useId, useRef, type ReactNode } from "react";
import { cn } from "../ui/cn";

export interface JsonLineError {
  /** 1-based line of the text, or null when the error has no place in it. */
  line: number | null;
  message: string;
  /** The field path the server named, when it came from the server. */
  path?: string;
}

const lineAt = (text: string, offset: number) => {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
};

/** "PropertyNameExpected" -> "property name expected". */
const words = (code: string) => code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

/**
 * Parses strict JSON (no comments, no trailing commas). Answers the value, or the first syntax
 * error with its line.
 */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: JsonLineError } {
  if (!text.trim()) return { ok: false, error: { line: 1, message: "empty: write a JSON value" } };
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length) {
    const first = errors[0]!;
    return {
      ok: false,
      error: { line: lineAt(text, first.offset), message: `invalid JSON: ${words(printParseErrorCode(first.error))}` },
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: { line: null, message: `invalid JSON: ${(e as Error).message}` } };
  }
}

/** Parses a JSON object (a definition, inputs, headers): any other value is an error at line 1. */
export function parseJsonObject(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: JsonLineError } {
  const r = parseJson(text);
  if (!r.ok) return r;
  if (typeof r.value !== "object" || r.value === null || Array.isArray(r.value)) {
    return { ok: false, error: { line: 1, message: "must be a JSON object ({ … })" } };
  }
  return { ok: true, value: r.value as Record<string, unknown> };
}

/**
 * The line of `text` that a field path points at (`steps.2.when`, segments split on dots). When the
 * path goes further than the text (a required field that is missing), the deepest node that exists
 * is used: the step object that lacks the field.
 */
export function lineOfPath(text: string, path: string | (string | number)[]): number | null {
  const root = parseTree(text);
  if (!root) return null;
  const segments = typeof path === "string" ? (path ? path.split(".") : []) : path;
  let node: Node = root;
  for (const seg of segments) {
    const key = node.type === "array" && /^\d+$/.test(String(seg)) ? Number(seg) : String(seg);
    const next = findNodeAtLocation(node, [key]);
    if (!next) break;
    node = next;
  }
  const at = node.parent?.type === "property" ? node.parent.offset : node.offset;
  return lineAt(text, at);
}

/**
 * Server field errors under `prefix` (e.g. "workflow") located in `text`. `fields` maps the
 * envelope's field paths to messages (ConsoleApiError.fields).
 */
export function locateFieldErrors(
  text: string,
  fields: Record<string, string>,
  prefix: string,
  opts: { includeBare?: boolean } = {},
): JsonLineError[] {
  const out: JsonLineError[] = [];
  for (const [field, message] of Object.entries(fields)) {
    let rest: string | null = null;
    if (field === prefix) rest = "";
    else if (field.startsWith(`${prefix}.`)) rest = field.slice(prefix.length + 1);
    else if (opts.includeBare && field !== "(root)") rest = field;
    if (rest === null) continue;
    out.push({ line: lineOfPath(text, rest), message, path: field });
  }
  return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

/**
 * The editor. `errors` are listed under it ("line N: message") and their lines are marked in the
 * gutter; "line N" moves the caret there.
 */
export function JsonEditor({
  label,
  value,
  onChange,
  errors = [],
  hint,
  rows = 18,
  readOnly,
  name,
  footer,
}: {
  label: string;
  value: string;
  onChange?: (text: string) => void;
  errors?: JsonLineError[];
  hint?: ReactNode;
  rows?: number;
  readOnly?: boolean;
  name?: string;
  footer?: ReactNode;
}) {
  const id = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const lines = value.split("\n").length;
  const bad = new Map<number, string>();
  for (const e of errors) if (e.line !== null && !bad.has(e.line)) bad.set(e.line, e.message);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors.length ? `${id}-errors` : undefined;

  const goTo = (line: number) => {
    const t = textarea.current;
    if (!t) return;
    const starts = [0];
    for (let i = 0; i < t.value.length; i++) if (t.value.charCodeAt(i) === 10) starts.push(i + 1);
    const start = starts[line - 1] ?? 0;
    const end = (starts[line] ?? t.value.length + 1) - 1;
    t.focus();
    t.setSelectionRange(start, Math.max(start, end));
    // Scroll the line into view: 20 px per line (leading-5), a few lines of context above.
    t.scrollTop = Math.max(0, (line - 4) * 20);
  };

  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      <div
        className={cn(
          "flex overflow-hidden rounded-md bg-white ring-1 ring-inset focus-within:ring-2",
          errors.length ? "ring-red-500 focus-within:ring-red-600" : "ring-zinc-300 focus-within:ring-indigo-600",
          readOnly && "bg-zinc-50",
        )}
      >
        <div
          ref={gutter}
          aria-hidden
          data-testid="json-gutter"
          data-editor={label}
          className="shrink-0 overflow-hidden border-r border-zinc-200 bg-zinc-50 py-2 text-right font-mono text-xs leading-5 text-zinc-600 select-none"
        >
          {Array.from({ length: lines }, (_, i) => {
            const n = i + 1;
            const err = bad.get(n);
            return (
              <div
                key={n}
                data-line={n}
                data-invalid={err ? "true" : undefined}
                title={err}
                className={cn("px-2 tabular-nums", err && "bg-red-100 font-semibold text-red-800")}
              >
                {err ? "● " : ""}
                {n}
              </div>
            );
          })}
          {/* room for the textarea's horizontal scrollbar */}
          <div className="h-4" />
        </div>
        <textarea
          ref={textarea}
          id={id}
          name={name}
          rows={rows}
          value={value}
          readOnly={readOnly}
          onChange={(e) => onChange?.(e.target.value)}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          wrap="off"
          aria-invalid={errors.length ? true : undefined}
          aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
          className="block min-h-32 w-full min-w-0 flex-1 resize-y overflow-auto border-0 bg-transparent px-3 py-2 font-mono text-xs leading-5 whitespace-pre text-zinc-900 focus:ring-0 focus:outline-none"
        />
      </div>
      {hint && (
        <p id={hintId} className="text-xs text-zinc-600">
          {hint}
        </p>
      )}
      {errors.length > 0 && (
        // The alert wraps the list: a role on the <ul> itself would hide its items' list semantics.
        <div id={errorId} role="alert">
          <ul className="space-y-0.5 text-xs font-medium text-red-700">
            {errors.map((e, i) => (
              <li key={i} className="break-words">
                {e.line !== null ? (
                  <button
                    type="button"
                    className="font-semibold underline decoration-dotted underline-offset-2 hover:text-red-900"
                    onClick={() => goTo(e.line!)}
                  >
                    line {e.line}
                  </button>
                ) : null}
                {e.line !== null ? ": " : ""}
                {e.message}
                {e.path && <span className="ml-1 font-mono font-normal text-red-600">({e.path})</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      {footer}
    </div>
  );
}
