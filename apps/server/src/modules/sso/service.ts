import type { SignInOptions, WorkspaceSso } from "@hangar/contract";
import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import type { UserRow } from "../../db/types.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { AppError, conflict, invalid } from "../../platform/errors.ts";
import type { ReadCache } from "../../platform/read-cache.ts";
import { cacheKeys } from "../../platform/read-cache.ts";
import { hashToken, newToken, safeEqual } from "../../platform/tokens.ts";
import type { AuthService, NewSession } from "../auth/index.ts";
import type { UsersService } from "../users/index.ts";
import { SSO } from "./policy.ts";
import { createOidcProvider, type OidcSettings, randomSecrets, SsoRefusal, type VerifiedIdentity } from "./provider.ts";
import { ssoRepo } from "./repo.ts";

/** How long a started sign-in may take at the provider (typing a password, a second factor). */
export const SSO_LOGIN_TTL_SECONDS = 10 * 60;
export const CALLBACK_PATH = "/api/v1/auth/sso/callback";

export interface SsoSettings extends Partial<OidcSettings> {
  allowedDomains: string[];
  buttonText: string;
  only: boolean;
}

type Meta = { ip: string | null; userAgent: string | null };
/** Where the callback sends the browser, and the session it opened (none when refused). */
export type CallbackOutcome = { session: NewSession; location: string } | { session: null; location: string };

const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1).toLowerCase();

export function createSsoService(deps: {
  db: Db;
  access: Access;
  cache: ReadCache;
  auth: AuthService;
  users: UsersService;
  log: Logger;
  publicUrl: string;
  settings: SsoSettings;
}) {
  const { db, access, cache, settings } = deps;
  const { issuer, clientId, clientSecret } = settings;
  const provider = issuer && clientId && clientSecret ? createOidcProvider({ issuer, clientId, clientSecret }) : null;
  const enabled = provider !== null;
  const redirectUri = `${deps.publicUrl}${CALLBACK_PATH}`;
  const requiredText = `This workspace requires single sign-on: sign in again with “${settings.buttonText}”.`;

  const allowedDomain = (email: string) =>
    settings.allowedDomains.length === 0 || settings.allowedDomains.includes(domainOf(email));
  const domainsText = () => settings.allowedDomains.map((d) => `@${d}`).join(", ");

  /** Whether the workspace requires SSO: from the read cache (void when the workspace changes), else one query. */
  async function requiresSso(workspaceId: string): Promise<boolean> {
    if (!enabled) return false;
    const key = `sso:${workspaceId}`;
    const hit = cache.get<boolean>(key);
    if (hit !== undefined) return hit;
    const snap = cache.snapshot();
    const required = await ssoRepo.requiresSso(db, workspaceId);
    cache.set(key, required, [cacheKeys.workspace(workspaceId)], snap);
    return required;
  }

  async function workspaceSso(workspaceId: string): Promise<WorkspaceSso> {
    return {
      require_sso: enabled && (await ssoRepo.requiresSso(db, workspaceId)),
      available: enabled,
      button_text: settings.buttonText,
      allowed_domains: settings.allowedDomains,
    };
  }

  /**
   * The account the provider's identity names: the one it signed in before (its subject), else the
   * one with that (provider-verified) address, which is then linked; a new one on first sign-in.
   */
  async function matchOrCreate(id: VerifiedIdentity & { email: string }): Promise<UserRow> {
    const subject = `${id.issuer}#${id.subject}`;
    const known = await ssoRepo.findBySubject(db, subject);
    if (known) return known;
    const byEmail = await deps.users.findByEmail(id.email);
    if (byEmail) {
      if (byEmail.sso_subject && byEmail.sso_subject !== subject)
        throw new SsoRefusal(
          "address linked to another provider identity",
          `${id.email} already signs in through another account at the provider.`,
        );
      // An account nobody had proven the address of may have been opened by someone else in the
      // owner's name: the provider proves it now, so that unproven password and its sessions go.
      const unproven = !byEmail.email_verified_at;
      if (unproven) await deps.auth.endSessions(byEmail.id);
      const linked = await deps.users.update(byEmail.id, {
        sso_subject: subject,
        ...(unproven ? { email_verified_at: new Date(), password_hash: "" } : {}),
      });
      return linked ?? byEmail;
    }
    const created = await deps.users.create({
      email: id.email,
      // No password: this account signs in through the provider (or sets one by a reset link).
      password_hash: "",
      first_name: id.firstName,
      last_name: id.lastName,
      email_verified_at: new Date(),
      sso_subject: subject,
    });
    // Created meanwhile by a parallel first sign-in: that one is the account.
    return created ?? (await ssoRepo.findBySubject(db, subject)) ?? (await deps.users.findByEmail(id.email))!;
  }

  const loginPage = (message: string) => `/a/login?sso_error=${encodeURIComponent(message)}`;

  return {
    enabled,
    options(): SignInOptions {
      return { sso: { enabled, button_text: settings.buttonText }, password_enabled: !(enabled && settings.only) };
    },

    /** A new sign-in: its secrets kept server-side under a value only this browser holds (the cookie). */
    async start(nextPath: string | undefined): Promise<{ browserToken: string; location: string }> {
      if (!provider) throw conflict("Single sign-on is not configured on this server.");
      const secrets = randomSecrets();
      const location = await provider.authorizationUrl({ redirectUri, ...secrets });
      const browserToken = newToken();
      await ssoRepo.createLogin(db, {
        id: hashToken(browserToken),
        ...secrets,
        nextPath: nextPath ?? "/w",
        expiresAt: new Date(Date.now() + SSO_LOGIN_TTL_SECONDS * 1000),
      });
      return { browserToken, location: location.href };
    },

    /**
     * The provider's redirect back. Every refusal is recorded as a failed sign-in and sends the
     * browser to the login page with a readable message; success opens a session like a password's.
     */
    async callback(
      query: { code?: string; state?: string; error?: string; error_description?: string },
      currentUrl: URL,
      browserToken: string | undefined,
      meta: Meta,
    ): Promise<CallbackOutcome> {
      let identity: VerifiedIdentity | null = null;
      let user: UserRow | null = null;
      try {
        if (!provider) throw new SsoRefusal("not configured", "Single sign-on is not configured on this server.");
        if (!browserToken)
          throw new SsoRefusal(
            "no sign-in cookie",
            "This sign-in was not started in this browser, or took too long. Start again.",
          );
        const taken = await ssoRepo.takeLogin(db, hashToken(browserToken));
        if (!taken.login) {
          const why = taken.missing === "used" ? "already used" : taken.missing === "expired" ? "expired" : "unknown";
          throw new SsoRefusal(
            `sign-in ${why}`,
            why === "already used"
              ? "This sign-in answer was already used. Start again."
              : "This sign-in took too long or was not started here. Start again.",
          );
        }
        const login = taken.login;
        if (query.error)
          throw new SsoRefusal(
            `provider error: ${query.error}`,
            `The provider did not sign you in: ${query.error_description || query.error}.`,
          );
        if (!query.state || !safeEqual(query.state, login.state))
          throw new SsoRefusal(
            "state mismatch",
            "The provider's answer does not match the sign-in started in this browser. Start again.",
          );
        identity = await provider.exchange(currentUrl, {
          state: login.state,
          nonce: login.nonce,
          codeVerifier: login.code_verifier,
        });
        const email = identity.email;
        if (!email) throw new SsoRefusal("no e-mail", "The provider did not share your e-mail address.");
        if (!identity.emailVerified)
          throw new SsoRefusal(
            "e-mail not verified",
            `The provider has not verified ${email}. Verify it there, then sign in again.`,
          );
        if (!allowedDomain(email))
          throw new SsoRefusal(
            "domain not allowed",
            `Only addresses at ${domainsText()} can sign in here; ${email} cannot.`,
          );
        user = await matchOrCreate({ ...identity, email });
        const session = await deps.auth.ssoSignIn(user, meta);
        return { session, location: login.next_path };
      } catch (err) {
        if (!(err instanceof SsoRefusal) && !(err instanceof AppError)) throw err;
        const reason = err instanceof SsoRefusal ? err.reason : err.code;
        deps.log.info({ reason }, "single sign-on refused");
        await deps.auth.ssoSignInFailed(identity?.email ?? null, user?.id ?? null, reason);
        return { session: null, location: loginPage(err.message) };
      }
    },

    async workspaceGet(actor: UserActor, workspaceId: string): Promise<WorkspaceSso> {
      await access.require(actor, SSO.view, inWorkspace(workspaceId));
      return workspaceSso(workspaceId);
    },

    async workspaceUpdate(actor: UserActor, workspaceId: string, require: boolean): Promise<WorkspaceSso> {
      await access.require(actor, SSO.manage, inWorkspace(workspaceId));
      if (require && !enabled)
        throw conflict("Single sign-on is not configured on this server (OIDC_ISSUER), so it cannot be required.");
      // Requiring it from a password session would lock its admin out with their next click.
      if (require && !actor.sso && !actor.key)
        throw conflict(`Sign in with “${settings.buttonText}” first: this session would be refused at once.`);
      await ssoRepo.setRequireSso(db, workspaceId, require);
      return workspaceSso(workspaceId);
    },

    /** The session hook's rule: a workspace requiring SSO lets in only sessions that came from it (keys are the workspace's own). */
    async checkSignIn(actor: UserActor, workspaceId: string): Promise<void> {
      if (actor.sso || actor.key || !(await requiresSso(workspaceId))) return;
      throw new AppError("SSO_REQUIRED", requiredText);
    },

    /** Invitations where SSO is required go only to addresses that can sign in through it (members' rule). */
    async checkInvite(workspaceId: string, email: string): Promise<void> {
      if (allowedDomain(email) || !(await ssoRepo.requiresSso(db, workspaceId)) || !enabled) return;
      throw invalid(
        `This workspace requires single sign-on, and only addresses at ${domainsText()} can sign in through it.`,
        [{ field: "email", message: `Invite an address at ${domainsText()}` }],
      );
    },

    purgeExpired: () => ssoRepo.purgeLogins(db),
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
