"use client";
import {
  useEffect,
  useId,
  useRef,
  useState,
  type ChangeEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { labelledSentence } from "@/lib/validation-messages";
import { cn } from "./cn";

const control =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-zinc-900 ring-1 ring-inset ring-zinc-300 " +
  "placeholder:text-zinc-500 focus:ring-2 focus:ring-inset focus:ring-indigo-600 disabled:bg-zinc-100 disabled:text-zinc-500";
const invalid = "ring-red-500 focus:ring-red-600";

/**
 * The error a field shows: the API's phrase read after the field's label ("Name must not be
 * empty."), hidden once the person edits the field (a corrected field clears its error), shown again
 * when the form is sent.
 */
function useShownError(label: string, error: string | undefined) {
  const box = useRef<HTMLDivElement>(null);
  const [edited, setEdited] = useState<string | undefined>(undefined);
  useEffect(() => {
    const form = box.current?.closest("form");
    if (!form) return;
    const sent = () => setEdited(undefined);
    form.addEventListener("submit", sent, true);
    return () => form.removeEventListener("submit", sent, true);
  }, []);
  const shown = error && error !== edited ? labelledSentence(label, error) : undefined;
  const onEdit = () => {
    if (error) setEdited(error);
  };
  return { box, shown, onEdit };
}

/** A label, a control and its hint or error, wired together for assistive technology. */
export function Field({
  label,
  hint,
  error,
  children,
  className,
}: {
  label: string;
  hint?: ReactNode;
  error?: string;
  children: (ids: { id: string; describedBy?: string; invalid: boolean }) => ReactNode;
  className?: string;
}) {
  const id = useId();
  const { box, shown, onEdit } = useShownError(label, error);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = shown ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div ref={box} className={cn("space-y-1", className)} onChange={onEdit} onInput={onEdit}>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(shown) })}
      {hint && (
        <p id={hintId} className="text-xs text-zinc-600">
          {hint}
        </p>
      )}
      {shown && (
        <p id={errorId} role="alert" className="text-xs font-medium text-red-700">
          {shown}
        </p>
      )}
    </div>
  );
}

type InvalidProp = { invalid?: boolean };

/** The label, hint and error every labelled control takes; `onValue` receives the new value. */
type Labelled = {
  label: string;
  hint?: ReactNode;
  error?: string;
  className?: string;
  onValue?: (value: string) => void;
};
type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/**
 * A labelled control's props split in two: the Field's, and the control's (its onChange also
 * calls `onValue`), to which `wired` adds the Field's id, description and invalid state.
 */
function labelled<P extends { onChange?: unknown }>({
  label,
  hint,
  error,
  className,
  onValue,
  ...control
}: Labelled & P) {
  const onChange = control.onChange as ((e: ChangeEvent<Control>) => void) | undefined;
  const change = onValue
    ? (e: ChangeEvent<Control>) => {
        onChange?.(e);
        onValue(e.target.value);
      }
    : onChange;
  return {
    field: { label, hint, error, className },
    wired: ({ id, describedBy, invalid }: { id: string; describedBy?: string; invalid: boolean }) => ({
      ...control,
      onChange: change,
      id,
      "aria-describedby": describedBy,
      invalid,
    }),
  };
}

/** A labelled text input: Field and Input wired together, for the common case. */
export function TextField(props: Labelled & Omit<InputHTMLAttributes<HTMLInputElement>, "className" | "id">) {
  const { field, wired } = labelled(props);
  return <Field {...field}>{(ids) => <Input {...wired(ids)} />}</Field>;
}

/** A labelled text area: Field and Textarea wired together (`areaClassName` styles the text area). */
export function TextareaField({
  areaClassName,
  ...props
}: Labelled & { areaClassName?: string } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "className" | "id">) {
  const { field, wired } = labelled(props);
  return <Field {...field}>{(ids) => <Textarea className={areaClassName} {...wired(ids)} />}</Field>;
}

/** A labelled select of `options` ([value, label]): Field and Select wired together. */
export function SelectField({
  options,
  ...props
}: Labelled & {
  options: readonly (readonly [string | number, string])[];
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, "className" | "id">) {
  const { field, wired } = labelled(props);
  return (
    <Field {...field}>
      {(ids) => (
        <Select {...wired(ids)}>
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

export function Input({ className, invalid: bad, ...props }: InputHTMLAttributes<HTMLInputElement> & InvalidProp) {
  return (
    <input aria-invalid={bad || undefined} className={cn(control, "h-10", bad && invalid, className)} {...props} />
  );
}

export function Textarea({
  className,
  invalid: bad,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & InvalidProp) {
  return <textarea aria-invalid={bad || undefined} className={cn(control, bad && invalid, className)} {...props} />;
}

export function Select({ className, invalid: bad, ...props }: SelectHTMLAttributes<HTMLSelectElement> & InvalidProp) {
  return (
    <select
      aria-invalid={bad || undefined}
      className={cn(control, "h-10 pr-8", bad && invalid, className)}
      {...props}
    />
  );
}

/**
 * A fieldset of checkboxes, one an option ([value, label]); `value` is the ticked ones, in the
 * order they were ticked. `scroll` keeps a long list (an organization's agents) in a short box.
 */
export function CheckboxGroup<V extends string>({
  legend,
  hint,
  options,
  value,
  onChange,
  error,
  scroll,
}: {
  legend: string;
  hint?: ReactNode;
  options: readonly (readonly [V, string])[];
  value: V[];
  onChange: (value: V[]) => void;
  error?: string;
  scroll?: boolean;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-zinc-800">{legend}</legend>
      {hint && <p className="text-xs text-zinc-600">{hint}</p>}
      <div className={scroll ? "mt-1 max-h-40 overflow-y-auto" : undefined}>
        {options.map(([v, text]) => (
          <CheckboxField
            key={v}
            label={text}
            className={scroll ? "mt-1" : "mt-2"}
            checked={value.includes(v)}
            onChecked={(on) => onChange(on ? [...value, v] : value.filter((x) => x !== v))}
          />
        ))}
      </div>
      {error && (
        <p role="alert" className="text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** One checkbox and its label ("Share with the organization"). */
export function CheckboxField({
  label,
  checked,
  onChecked,
  className,
}: {
  label: ReactNode;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  className?: string;
}) {
  return (
    <label className={cn("flex items-start gap-2 text-sm text-zinc-800", className)}>
      <input
        type="checkbox"
        className="mt-0.5 size-4 accent-indigo-600"
        checked={checked}
        onChange={(e) => onChecked(e.target.checked)}
      />
      <span className="break-words">{label}</span>
    </label>
  );
}
