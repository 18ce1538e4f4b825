import { z } from "zod";
import { Id } from "./common.ts";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const Email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: "Enter a valid e-mail address" }));
const Password = z
  .string()
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);
const PersonName = z.string().trim().max(100);

export const User = z.object({
  id: Id,
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  avatar_url: z.string().nullable(),
  email_verified: z.boolean(),
  pending_email: z.string().nullable(),
  created_at: z.string(),
});
export type User = z.infer<typeof User>;

export const CsrfAnswer = z.object({ data: z.object({ csrftoken: z.string() }) });
export const MeAnswer = z.object({ status: z.literal("ok"), data: User });
export type MeAnswer = z.infer<typeof MeAnswer>;

export const LoginBody = z.object({ email: Email, password: z.string().min(1).max(PASSWORD_MAX) });
export type LoginBody = z.infer<typeof LoginBody>;

export const RegisterBody = z.object({
  email: Email,
  password: Password,
  first_name: PersonName.min(1, "First name is required"),
  last_name: PersonName.default(""),
  invite_token: z.string().max(200).nullish(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

/** Register never says whether the e-mail was already taken (no enumeration). */
export const RegisterAnswer = z.object({
  status: z.literal("ok"),
  /** true when the caller is now signed in (invited sign-up, e-mail proven by the invite). */
  signed_in: z.boolean(),
  detail: z.string(),
  data: User.nullable(),
});
export type RegisterAnswer = z.infer<typeof RegisterAnswer>;

export const EmailBody = z.object({ email: Email });
/** The current password proves the caller is the owner, not someone at an unlocked screen. */
export const ChangeEmailBody = z.object({ new_email: Email, current_password: z.string().min(1).max(PASSWORD_MAX) });
export const TokenParams = z.object({ token: z.string().min(1).max(200) });
export const TokenBody = z.object({ token: z.string().min(1).max(200) });
export const ResetPasswordBody = z.object({ token: z.string().min(1).max(200), new_password: Password });
export const ChangePasswordBody = z.object({
  current_password: z.string().min(1).max(PASSWORD_MAX),
  new_password: Password,
});
export const PatchMeBody = z
  .object({ first_name: PersonName.min(1, "First name is required").optional(), last_name: PersonName.optional() })
  .strict();
export type PatchMeBody = z.infer<typeof PatchMeBody>;

export const DetailAnswer = z.object({ status: z.literal("ok"), detail: z.string() });
export type DetailAnswer = z.infer<typeof DetailAnswer>;

/** Initials fallback for a missing avatar (spec 02 §3). */
export function initials(user: { first_name?: string | null; last_name?: string | null }): string {
  const s = `${(user.first_name ?? "").trim().charAt(0)}${(user.last_name ?? "").trim().charAt(0)}`.toUpperCase();
  return s || "?";
}
