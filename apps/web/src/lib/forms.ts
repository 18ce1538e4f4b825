import { PASSWORD_MAX, PASSWORD_MIN } from "@hangar/contract";
import { useCallback, useRef, useState } from "react";
import { isApiError } from "./api-client";

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** Minimal form state (values and per-field errors) without a form library. */
export function useFormState<V extends Record<string, string>>(initial: V) {
  type F = Extract<keyof V, string>;
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<F>>({});

  const setValue = useCallback((field: F, value: string) => {
    setValues((prev) => ({ ...prev, [field]: value }));
    setErrors((prev) => (prev[field] ? { ...prev, [field]: undefined } : prev));
  }, []);

  /** Props for a Mantine input bound to `field`. */
  const bind = (field: F) => ({
    value: values[field],
    error: errors[field],
    onChange: (event: { currentTarget: { value: string } }) => setValue(field, event.currentTarget.value),
  });

  // Initial values are read once, like a form library's initialValues; `reset` stays stable.
  const initialRef = useRef(initial);
  const reset = useCallback((next?: V) => {
    setValues(next ?? initialRef.current);
    setErrors({});
  }, []);

  return { values, setValues, setValue, errors, setErrors, bind, reset };
}

/** Drops undefined entries; true when nothing is left (the form is valid). */
export function noErrors<F extends string>(errors: FieldErrors<F>): boolean {
  return Object.values(errors).every((value) => !value);
}

export function requiredText(value: string, message: string): string | undefined {
  return value.trim() ? undefined : message;
}

/**
 * zod's own e-mail pattern (zod/v4/core/regexes.js, `email`), which the contract's e-mail fields use:
 * the sign-in page checks by hand so it needs no zod (forms.test.ts keeps the two in step).
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export function emailError(value: string): string | undefined {
  if (!value.trim()) return "E-mail is required";
  return EMAIL_PATTERN.test(value.trim().toLowerCase()) ? undefined : "Enter a valid e-mail address";
}

export function newPasswordError(value: string): string | undefined {
  if (!value) return "Password is required";
  if (value.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters`;
  if (value.length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters`;
  return undefined;
}

/**
 * Maps a 422 answer's `errors[].field` onto the form's fields ("body.email" or "email" → "email").
 * Returns the field errors found; anything left over is for a form-level message.
 */
export function serverFieldErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
  aliases: Partial<Record<string, F>> = {},
): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  if (!isApiError(error)) return out;
  for (const item of error.errors) {
    const name =
      item.field
        .split(/[.[\]/]/)
        .filter(Boolean)
        .pop() ?? item.field;
    const field = (fields as readonly string[]).includes(name) ? (name as F) : aliases[name];
    if (field && !out[field]) out[field] = item.message;
  }
  return out;
}

/** A safe in-app path from `?next=` (never another origin). */
export function safeNextPath(next: string | null | undefined, fallback = "/w"): string {
  if (!next?.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  return next;
}
