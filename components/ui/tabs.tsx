"use client";
// Tabs over one page's parts (an agent's Overview, Versions, Settings): a tablist whose arrow keys,
// Home and End move between the tabs (only the selected one is a tab stop), and the selected
// panel, labelled by its tab. Which tab is selected is the caller's state (kept in the URL).
import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "./cn";

export interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
}

export function Tabs<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
  children,
}: {
  /** The tablist's accessible name ("Agent"). */
  label: string;
  tabs: TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  /** The selected tab's panel. */
  children: ReactNode;
}) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const tabId = (k: K) => `${base}-tab-${k}`;
  const onKeyDown = (e: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.key === selected);
    const to =
      e.key === "ArrowRight"
        ? (i + 1) % tabs.length
        : e.key === "ArrowLeft"
          ? (i - 1 + tabs.length) % tabs.length
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? tabs.length - 1
              : null;
    if (to === null) return;
    e.preventDefault();
    onSelect(tabs[to]!.key);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[to]?.focus();
  };
  return (
    <div>
      <div
        ref={list}
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="mb-4 flex gap-1 overflow-x-auto border-b border-zinc-200"
      >
        {tabs.map((t) => {
          const on = t.key === selected;
          return (
            <button
              key={t.key}
              type="button"
              role="tab"
              id={tabId(t.key)}
              aria-selected={on}
              aria-controls={`${base}-panel`}
              tabIndex={on ? 0 : -1}
              onClick={() => onSelect(t.key)}
              className={cn(
                "-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-indigo-600",
                on ? "border-indigo-600 text-indigo-700" : "border-transparent text-zinc-600 hover:text-zinc-900",
              )}
            >
              {t.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={tabId(selected)}>
        {children}
      </div>
    </div>
  );
}
