"use client";
// The one copy control of the console. The clipboard may refuse (plain http on an address that is not
// local, a denied permission): then the text is selected on the page, so Ctrl+C copies it, and the
// button says so instead of "Copied". A raw key shown once is never lost to a silent failure.
import { useEffect, useRef, useState, type RefObject } from "react";
import { Button } from "./button";

export const COPY_FAILED = "Copy failed: the text is selected, press Ctrl+C";

type CopyState = "idle" | "copied" | "failed";

/** Selects the text of an element (an input's value, or the element's text). */
function selectText(el: HTMLElement) {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    el.focus();
    el.select();
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(el);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

async function writeClipboard(value: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * A copy button. `target` is the element on the page that shows the value (a CopyField's text);
 * without one, a failure shows the value in a read-only box next to the button, selected.
 */
export function CopyButton({
  value,
  label = "Copy",
  target,
}: {
  value: string;
  label?: string;
  target?: RefObject<HTMLElement | null>;
}) {
  const [state, setState] = useState<CopyState>("idle");
  const fallback = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (state !== "failed") return;
    const el = target?.current ?? fallback.current;
    if (el) selectText(el);
  }, [state, target]);

  return (
    <span className="inline-flex max-w-full flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        size="sm"
        onClick={async () => {
          clearTimeout(timer.current);
          const ok = await writeClipboard(value);
          setState(ok ? "copied" : "failed");
          if (ok) timer.current = setTimeout(() => setState("idle"), 1500);
        }}
      >
        {state === "copied" ? "Copied" : label}
      </Button>
      {state === "failed" && !target && (
        <input
          ref={fallback}
          readOnly
          value={value}
          aria-label={`${label}: the text to copy`}
          onFocus={(e) => e.currentTarget.select()}
          className="h-8 w-56 max-w-full min-w-0 rounded-md bg-zinc-50 px-2 font-mono text-xs text-zinc-900 ring-1 ring-zinc-300 ring-inset"
        />
      )}
      <span aria-live="polite" role="status" className="text-xs font-medium text-amber-800 empty:hidden">
        {state === "failed" ? COPY_FAILED : ""}
      </span>
    </span>
  );
}

/** A value shown in full (a secret or link shown only once): selectable text with its copy button. */
export function CopyField({ value, testId, copyLabel }: { value: string; testId: string; copyLabel: string }) {
  const text = useRef<HTMLElement>(null);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <code
        ref={text}
        data-testid={testId}
        className="min-w-0 flex-1 rounded-md bg-zinc-100 px-3 py-2 font-mono text-xs break-all select-all"
      >
        {value}
      </code>
      <CopyButton value={value} label={copyLabel} target={text} />
    </div>
  );
}
