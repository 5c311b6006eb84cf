"use client";
// A form's text values, named as the fields of the body it sends, so that the API's field errors
// (ConsoleApiError.fields) land on the control of the same name.
import { useState } from "react";

export function useFormValues<F extends Record<string, string>>(initial: F) {
  const [values, setValues] = useState(initial);
  const set = (name: keyof F, value: string) => setValues((v) => ({ ...v, [name]: value }));
  return {
    values,
    reset: () => setValues(initial),
    /** A labelled control's value, onValue and error (TextField, TextareaField, SelectField). */
    bind: (name: keyof F & string, errors: Partial<Record<string, string>> = {}) => ({
      value: values[name],
      onValue: (value: string) => set(name, value),
      error: errors[name],
    }),
  };
}
