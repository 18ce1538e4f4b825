import * as oidc from "openid-client";
import { isLoopbackHost } from "../../config.ts";
import { AppError } from "../../platform/errors.ts";

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What the provider said about the person, once the code was exchanged and the ID token verified. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}

/** The provider's answer was refused: `reason` is for the audit log, `message` for the person. */
export class SsoRefusal extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

const DISCOVERY_TIMEOUT_SECONDS = 10;
/** After a failed discovery the next sign-in tries again, but not more often than this. */
const RETRY_AFTER_MS = 5_000;

/**
 * The OpenID provider as openid-client sees it. Its discovery document is fetched at the first
 * sign-in, not at start, so Hangar starts while the provider is down; a sign-in then answers a clear
 * 503, and a later one tries again. Plain http is allowed only for a provider on this machine (the
 * configuration refuses it elsewhere).
 */
export function createOidcProvider(settings: OidcSettings) {
  let config: Promise<oidc.Configuration> | null = null;
  let failedAt = 0;
  const insecure = new URL(settings.issuer).protocol === "http:" && isLoopbackHost(new URL(settings.issuer).hostname);

  async function configuration(): Promise<oidc.Configuration> {
    if (!config) {
      if (Date.now() - failedAt < RETRY_AFTER_MS) throw unreachable();
      config = oidc
        .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
          timeout: DISCOVERY_TIMEOUT_SECONDS,
          ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        })
        .catch((err: unknown) => {
          config = null;
          failedAt = Date.now();
          throw unreachable(err);
        });
    }
    return config;
  }
  const unreachable = (err?: unknown) =>
    new AppError(
      "SERVICE_UNAVAILABLE",
      `The sign-in provider (${settings.issuer}) cannot be reached right now${
        err instanceof Error ? `: ${err.message}` : ""
      }. Try again in a moment, or sign in another way.`,
    );

  return {
    /** The provider's authorization URL for one sign-in, with PKCE (S256), state and nonce. */
    async authorizationUrl(p: { redirectUri: string; state: string; nonce: string; codeVerifier: string }) {
      const cfg = await configuration();
      return oidc.buildAuthorizationUrl(cfg, {
        redirect_uri: p.redirectUri,
        scope: "openid email profile",
        response_type: "code",
        code_challenge: await oidc.calculatePKCECodeChallenge(p.codeVerifier),
        code_challenge_method: "S256",
        state: p.state,
        nonce: p.nonce,
      });
    },

    /**
     * Checks the provider's redirect (state, issuer), exchanges the code with the PKCE verifier,
     * verifies the ID token (signature, audience, expiry, nonce) and reads the e-mail from it or,
     * when the provider keeps it for the userinfo endpoint, from there (same subject).
     */
    async exchange(currentUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }) {
      const cfg = await configuration();
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(cfg, currentUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        throw new SsoRefusal(
          `code exchange refused: ${describe(err)}`,
          `The sign-in could not be completed with the provider (${describe(err)}). Start again.`,
        );
      }
      const claims = tokens.claims();
      if (!claims) throw new SsoRefusal("no ID token", "The provider sent no ID token. Start again.");
      let info: Record<string, unknown> = claims;
      if (typeof claims.email !== "string" && tokens.access_token) {
        const more = await oidc.fetchUserInfo(cfg, tokens.access_token, claims.sub).catch((err: unknown) => {
          throw new SsoRefusal(
            `userinfo refused: ${describe(err)}`,
            `The provider did not say who you are (${describe(err)}).`,
          );
        });
        info = { ...more, ...claims };
      }
      const text = (k: string) => (typeof info[k] === "string" ? (info[k] as string).trim() : "");
      const [first = "", ...rest] = text("name").split(" ").filter(Boolean);
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: text("email").toLowerCase() || null,
        emailVerified: info.email_verified === true || info.email_verified === "true",
        firstName: (text("given_name") || first).slice(0, 100),
        lastName: (text("family_name") || rest.join(" ")).slice(0, 100),
      } satisfies VerifiedIdentity;
    },
  };
}
export type OidcProvider = ReturnType<typeof createOidcProvider>;

export const randomSecrets = () => ({
  state: oidc.randomState(),
  nonce: oidc.randomNonce(),
  codeVerifier: oidc.randomPKCECodeVerifier(),
});

/** The provider's own words when it gave them (an OAuth error), else the library's. */
function describe(err: unknown): string {
  if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError)
    return err.error_description ? `${err.error}: ${err.error_description}` : err.error;
  return err instanceof Error ? err.message : String(err);
}
