import { z } from "zod";

/**
 * Single sign-on through OpenID Connect (issue 36). The sign-in options are public: the login page
 * shows the provider's button, and hides the password form when the server allows only SSO.
 */
export const SignInOptions = z.object({
  sso: z.object({ enabled: z.boolean(), button_text: z.string() }),
  password_enabled: z.boolean(),
});
export type SignInOptions = z.infer<typeof SignInOptions>;
export const SignInOptionsAnswer = z.object({ data: SignInOptions });

/** An in-app path to land on after signing in (never another origin). */
const NextPath = z
  .string()
  .max(1000, "next is too long")
  .refine((p) => p.startsWith("/") && !p.startsWith("//") && !p.startsWith("/\\"), {
    message: "next must be a path in this app, starting with a single /",
  });
export const SsoStartQuery = z.object({ next: NextPath.optional() });

/** What the provider sends back (RFC 6749 §4.1.2): a code and our state, or an error. */
const Param = z.string().max(4096, "too long");
export const SsoCallbackQuery = z.object({
  code: Param.optional(),
  state: Param.optional(),
  iss: Param.optional(),
  session_state: Param.optional(),
  error: Param.optional(),
  error_description: Param.optional(),
});

/** A workspace's SSO setting, with what the server offers (the setting is only on when SSO is). */
export const WorkspaceSso = z.object({
  require_sso: z.boolean(),
  available: z.boolean(),
  button_text: z.string(),
  /** The domains the server lets sign in through the provider (empty: any the provider vouches for). */
  allowed_domains: z.array(z.string()),
});
export type WorkspaceSso = z.infer<typeof WorkspaceSso>;
export const WorkspaceSsoAnswer = z.object({ data: WorkspaceSso });
export const UpdateWorkspaceSsoBody = z.object({ require_sso: z.boolean() });

/** The `?sso_error=` the callback sends the login page, read there as a message. */
export const SSO_ERROR_PARAM = "sso_error";
