"use client";
// A rollout's share of new sessions and runs: a slider and a number field over one value (1-100),
// kept as typed so that a half-typed number is not snapped back; `parsePercent` reads it.
import type { ReactNode } from "react";
import { Field, Input } from "@/components/ui/field";

/** The share typed, or null when it is not an integer from 1 to 100. */
export function parsePercent(text: string): number | null {
  const n = Number(text.trim());
  return text.trim() && Number.isInteger(n) && n >= 1 && n <= 100 ? n : null;
}

export function PercentField({
  label,
  value,
  onValue,
  hint,
}: {
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: ReactNode;
}) {
  // Checked as typed (not by Field's error, which hides once the field is edited): the button it
  // feeds stays off while the share is not one.
  const invalid = parsePercent(value) === null;
  return (
    <div className="space-y-1">
      <Field label={label} hint={hint}>
        {({ id, describedBy }) => (
          <div className="flex items-center gap-3">
            <input
              type="range"
              min={1}
              max={100}
              step={1}
              value={parsePercent(value) ?? 1}
              onChange={(e) => onValue(e.target.value)}
              aria-label={`${label}, slider`}
              className="min-w-0 flex-1 accent-indigo-600"
            />
            <div className="w-24 shrink-0">
              <Input
                id={id}
                type="number"
                min={1}
                max={100}
                step={1}
                inputMode="numeric"
                value={value}
                onChange={(e) => onValue(e.target.value)}
                aria-describedby={describedBy}
                invalid={invalid}
              />
            </div>
          </div>
        )}
      </Field>
      {invalid && (
        <p role="alert" className="text-xs font-medium text-red-700">
          {label} must be an integer from 1 to 100.
        </p>
      )}
    </div>
  );
}
