import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Configuration } from "oidc-provider";

/** A person the test provider knows: their login at the provider and what it says about them. */
export interface ProviderAccount {
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Hangar's settings pointing at this provider. */
  env: Record<string, string>;
  /** Accounts by login (the `sub` is the login); tests add and change them. */
  accounts: Map<string, ProviderAccount>;
  close(): Promise<void>;
}

/**
 * A real OpenID Provider (oidc-provider, certified), started in-process on a loopback port with one
 * client (Hangar at `redirectUris`) and the accounts the test puts in `accounts`. Its own
 * development login page (devInteractions: a login and a password field) is what a person fills in;
 * consent is granted for this first-party client at once, as a company's provider does for its own
 * apps. Discovery, keys, the authorization code with PKCE, tokens and userinfo are all its own.
 */
export async function startOidcProvider(opts: { redirectUris: string[] }): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "hangar";
  const clientSecret = "hangar-test-client-secret-0123456789";
  const accounts = new Map<string, ProviderAccount>();
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["given_name", "family_name", "name"],
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["hangar-test-provider-cookie-key"] },
    // Keys and lifetimes of its own, so it does not fall back to (and warn of) the quick-start ones.
    jwks: { keys: [generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" })] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        async claims() {
          const name = [account.given_name, account.family_name].filter(Boolean).join(" ");
          return { sub: id, ...account, ...(name ? { name } : {}) };
        },
      };
    },
    // A first-party client: the grant is given without a consent screen.
    async loadExistingGrant(ctx) {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const existing = session.grantIdFor(client.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  // The provider's own warnings about development-only features are expected here.
  provider.on("server_error", (_ctx, err) => console.error("test OpenID provider:", err));
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Walks the provider's pages as a browser would, by HTTP: follows the redirect from Hangar's start
 * to the login page, submits the login form (`login`, `password`) and follows the provider's
 * redirects until one leaves for Hangar; answers that URL (the callback, with code and state).
 */
export async function signInAtProvider(authorizeUrl: string, login: string, password = "any password") {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ""] = c.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  };
  const origin = new URL(authorizeUrl).origin;
  let res = await send(authorizeUrl);
  let url = authorizeUrl;
  for (let hops = 0; hops < 10; hops++) {
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location") ?? "", url).href;
      if (new URL(url).origin !== origin) return url;
      res = await send(url);
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action || !html.includes('name="login"'))
      throw new Error(`unexpected provider page (${res.status}): ${html.slice(0, 300)}`);
    const body = new URLSearchParams({ prompt: "login", login, password });
    url = new URL(action.replaceAll("&amp;", "&"), url).href;
    res = await send(url, {
      method: "POST",
      body: body.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  }
  throw new Error("the provider never sent the browser back");
}
