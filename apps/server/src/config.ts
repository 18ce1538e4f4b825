import { existsSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { plansFileProblem } from "./modules/billing/plans.ts";
import { parseNetworks } from "./platform/outbound.ts";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no"])
  .transform((v) => v === "1" || v === "true" || v === "yes");

/**
 * Which proxies in front of us may be believed about the client's address. Fastify (proxy-addr) then
 * takes the right-most address of `X-Forwarded-For` that is not a trusted proxy: whatever a client
 * writes to the left of what its proxy appended is never believed. `true` means one proxy (the
 * README's nginx); trusting every hop would hand the client the left-most, self-written value.
 */
export type TrustProxy = false | number | string[];
const trustProxy = z.string().transform((raw, ctx): TrustProxy => {
  const v = raw.trim().toLowerCase();
  if (["false", "no", "0"].includes(v)) return false;
  if (["true", "yes"].includes(v)) return 1;
  if (/^\d+$/.test(v)) return Math.min(Number(v), 32);
  const list = v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.filter((entry) => {
    const [addr = "", prefix, ...rest] = entry.split("/");
    const family = isIP(addr);
    if (!family || rest.length > 0) return true;
    return prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
  });
  if (list.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: "custom",
      message: `TRUST_PROXY must be false, true, a hop count or a list of proxy addresses/CIDRs (bad: ${bad.join(", ")})`,
    });
    return z.NEVER;
  }
  return list;
});

/** Fastify's `trustProxy` option: a hop count becomes "trust the socket and the next n-1 hops". */
export function trustProxyOption(tp: TrustProxy): false | string[] | ((addr: string, hop: number) => boolean) {
  return typeof tp === "number" ? (_addr, hop) => hop < tp : tp;
}

/** A domain name as e-mail addresses use it (labels of letters, digits and inner hyphens). */
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const isDomain = (d: string) => d.length <= 253 && d.includes(".") && d.split(".").every((l) => DOMAIN_LABEL.test(l));

/** The provider is reached over https; plain http only for one on this machine (tests, a local IdP). */
export function issuerSchemeOk(issuer: string): boolean {
  if (!URL.canParse(issuer)) return true; // the URL check names it
  const u = new URL(issuer);
  if (u.protocol === "https:") return true;
  return u.protocol === "http:" && isLoopbackHost(u.hostname);
}
export const isLoopbackHost = (host: string) =>
  host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** Every environment variable Hangar reads. The README's configuration table mirrors this. */
/**
 * A Stripe credential: its prefix, then the token Stripe issued, whatever its alphabet (webhook secrets
 * of the Stripe CLI and of the dashboard differ; `-` and `+` occur). The message says what is wrong.
 */
function stripeSecret(name: string, prefixes: string[], what: string) {
  return z.string().superRefine((v, ctx) => {
    const say = (message: string) => ctx.addIssue({ code: "custom", message: `${name} ${message}` });
    const prefix = prefixes.find((p) => v.startsWith(p));
    if (!prefix) return say(`must be ${what}, starting with ${prefixes.join(" or ")}`);
    if (v.length === prefix.length) return say(`has nothing after ${prefix}`);
    if (/\s/.test(v)) return say("contains spaces or line breaks: copy it again from the Stripe dashboard");
    if (/[^\x21-\x7e]/.test(v)) return say("contains characters Stripe never issues (only printable ASCII)");
  });
}

export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().default("0.0.0.0"),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().default("./data"),
    DATABASE_URL: z.url().optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(20),
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().default("Hangar <no-reply@hangar.local>"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /**
     * `auto`: readable one-line logs in a terminal, JSON lines when the output is a file or a pipe and
     * always with NODE_ENV=production (README, Logs); `json` or `pretty` force one.
     */
    LOG_FORMAT: z.enum(["auto", "json", "pretty"]).default("auto"),
    /** The level of the one line per request: `debug` in a terminal (hidden at LOG_LEVEL=info), else `info`. */
    LOG_REQUESTS: z.enum(["debug", "info"]).optional(),
    TRUST_PROXY: trustProxy.default(false),
    /** `/metrics` needs `Authorization: Bearer <token>` when set; without it only loopback callers get it. */
    METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
    /** `hangar work` has no HTTP server: with this set it serves /metrics and /healthz on this port. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** How long SIGTERM waits for in-flight requests and jobs before it exits anyway. */
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(25),
    COOKIE_SECURE: z.enum(["auto", "always", "never"]).default("auto"),
    SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    /** A live stream's keep-alive (and membership re-check) interval; proxies drop idle streams sooner. */
    LIVE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(3600).default(20),
    /** Raise behind a shared address (an office NAT); the browser tests sign up many users from one. */
    REGISTRATIONS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
    DEMO_ACCOUNT: bool.default(true),
    /** The new demo account's workspace gets sample boards and files (generated, processed for real). */
    DEMO_CONTENT: bool.default(true),
    WEB_DIST: z.string().optional(),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    JOBS_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, "JOBS_SCHEMA must be a lower-case SQL identifier")
      .default("pgboss"),
    MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(10 * 1024 ** 3),
    STORAGE: z.enum(["disk", "s3"]).default("disk"),
    S3_ENDPOINT: z.url().optional(),
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "S3_BUCKET must be a valid bucket name")
      .optional(),
    S3_REGION: z.string().default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    SECRET_KEY: z.string().min(32, "SECRET_KEY must be at least 32 characters").optional(),
    AI_TAGS: bool.default(true),
    /** Faces and people (issue 32): detection after processing, in a worker thread (a workspace can also turn it off). */
    FACES: bool.default(true),
    /** OCR of images and document pages (tesseract.js, offline); its text is searchable. */
    OCR: bool.default(true),
    /** Per image or page; a timeout ends the OCR thread and the asset completes without text. */
    OCR_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(30_000),
    /** CPU time (not wall time) a photo's quick look may take; over it, the text is read again later with more. */
    OCR_CPU_BUDGET_MS: z.coerce.number().int().min(1).max(600_000).default(3_000),
    /** First wait before a read over its budget is tried again; it doubles each time. */
    OCR_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3_600).default(10),
    READ_CACHE: bool.default(true),
    AI_MIN_CONFIDENCE: z.coerce.number().min(0).max(1).default(0.3),
    /** Billing is on only with a secret key (issue 18); unset, nothing is limited. */
    STRIPE_SECRET_KEY: stripeSecret("STRIPE_SECRET_KEY", ["sk_", "rk_"], "a Stripe secret key (sk_…)").optional(),
    STRIPE_WEBHOOK_SECRET: stripeSecret("STRIPE_WEBHOOK_SECRET", ["whsec_"], "a webhook signing secret").optional(),
    /** Tests point the SDK at a fake of Stripe's API; production leaves it unset (api.stripe.com). */
    STRIPE_API_BASE: z.url().optional(),
    /** A JSON file replacing the default plans (see the README); read and checked at start. */
    BILLING_PLANS_FILE: z.string().optional(),
    /** After a failed payment, how long the paid plan's limits still apply before the free plan's do. */
    BILLING_GRACE_DAYS: z.coerce.number().int().min(0).max(90).default(14),
    /**
     * Networks webhooks may call although they are not public (loopback, private, link-local…): CIDRs
     * or addresses, commas or spaces between. Empty (the default): only public addresses (issue 36).
     */
    WEBHOOK_ALLOWED_NETWORKS: z
      .string()
      .default("")
      .transform((v, ctx) => {
        const { networks, bad } = parseNetworks(v);
        if (bad.length > 0) {
          ctx.addIssue({
            code: "custom",
            message: `WEBHOOK_ALLOWED_NETWORKS must be CIDRs or addresses, e.g. 10.0.0.0/8,::1 (bad: ${bad.join(", ")})`,
          });
          return z.NEVER;
        }
        return networks;
      }),
    /** Single sign-on through OpenID Connect (issue 36): on when the issuer, client id and secret are set. */
    OIDC_ISSUER: z.url("OIDC_ISSUER must be the provider's issuer URL, e.g. https://login.example.com").optional(),
    OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** Only these e-mail domains may sign in through the provider (and be invited where SSO is required). */
    OIDC_ALLOWED_DOMAINS: z
      .string()
      .default("")
      .transform((v, ctx) => {
        const domains = v
          .split(/[\s,]+/)
          .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
          .filter(Boolean);
        const bad = domains.filter((d) => !isDomain(d));
        if (bad.length > 0) {
          ctx.addIssue({
            code: "custom",
            message: `OIDC_ALLOWED_DOMAINS must be e-mail domains, e.g. example.com,example.org (bad: ${bad.join(", ")})`,
          });
          return z.NEVER;
        }
        return domains;
      }),
    /** The sign-in button's text, also named in the "this workspace requires single sign-on" message. */
    OIDC_BUTTON_TEXT: z
      .string()
      .trim()
      .min(1)
      .max(60, "OIDC_BUTTON_TEXT must be at most 60 characters")
      .default("Sign in with single sign-on"),
    /** Password sign-in, sign-up and password reset off: everyone signs in through the provider. */
    OIDC_ONLY: bool.default(false),
  })
  .superRefine((c, ctx) => {
    if (c.STRIPE_SECRET_KEY && !c.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_WEBHOOK_SECRET"],
        message: "STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY (events could not be verified)",
      });
    }
    if (c.STRIPE_API_BASE && !/^https?:\/\//.test(c.STRIPE_API_BASE)) {
      ctx.addIssue({ code: "custom", path: ["STRIPE_API_BASE"], message: "STRIPE_API_BASE must be an http(s) URL" });
    }
    if (c.BILLING_PLANS_FILE) {
      const problem = plansFileProblem(c.BILLING_PLANS_FILE);
      if (problem) ctx.addIssue({ code: "custom", path: ["BILLING_PLANS_FILE"], message: problem });
    }
    const oidc = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;
    if (oidc.some((n) => c[n]) || c.OIDC_ONLY) {
      for (const name of oidc)
        if (!c[name]) ctx.addIssue({ code: "custom", path: [name], message: `${name} is required for single sign-on` });
    }
    if (c.OIDC_ISSUER && !issuerSchemeOk(c.OIDC_ISSUER)) {
      ctx.addIssue({
        code: "custom",
        path: ["OIDC_ISSUER"],
        message: "OIDC_ISSUER must be an https URL (http only on this machine: localhost, 127.0.0.1, [::1])",
      });
    }
    if (c.STORAGE !== "s3") return;
    // S3_ENDPOINT may be left out for AWS itself (the SDK knows the regional endpoint).
    for (const name of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
      if (!c[name]) ctx.addIssue({ code: "custom", path: [name], message: `${name} is required when STORAGE=s3` });
    }
  });
export type Config = z.infer<typeof ConfigSchema> & {
  dataDir: string;
  webDist: string;
  publicUrl: string;
  /** LOG_FORMAT decided for this process's output. */
  logFormat: LogFormat;
  requestLogLevel: "debug" | "info";
};

export class ConfigError extends Error {}

/** `stdoutIsTTY`: whether the logs go to a terminal (LOG_FORMAT=auto reads it). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, stdoutIsTTY = !!process.stdout.isTTY): Config {
  // An empty value means unset (as in most .env files), not an invalid value.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = ConfigSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  const repoRoot = path.resolve(import.meta.dirname, "../../..");
  const dataDir = resolveDataDir(c.DATA_DIR, present.DATA_DIR === undefined, env.INIT_CWD, repoRoot);
  const logFormat = resolveLogFormat(c.LOG_FORMAT, stdoutIsTTY, c.NODE_ENV);
  return {
    ...c,
    logFormat,
    requestLogLevel: c.LOG_REQUESTS ?? (logFormat === "pretty" ? "debug" : "info"),
    dataDir,
    webDist: c.WEB_DIST ? path.resolve(c.WEB_DIST) : path.join(repoRoot, "apps/web/dist"),
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ""),
  };
}

export type LogFormat = "json" | "pretty";

/**
 * Readable lines for a person at a terminal; JSON lines for machines (a file, a pipe, a log
 * collector), and always in production and tests, whatever the output is.
 */
export function resolveLogFormat(setting: "auto" | LogFormat, stdoutIsTTY: boolean, nodeEnv: string): LogFormat {
  if (setting !== "auto") return setting;
  return stdoutIsTTY && nodeEnv === "development" ? "pretty" : "json";
}

/**
 * A relative DATA_DIR is relative to where the user ran the command: npm runs workspace scripts in
 * the workspace's folder but says where it was started in INIT_CWD. Data that earlier versions put
 * under apps/server/data (a start from the repository root) stays in use until it is moved.
 */
function resolveDataDir(dataDir: string, isDefault: boolean, initCwd: string | undefined, repoRoot: string) {
  const resolved = path.resolve(initCwd || process.cwd(), dataDir);
  const legacy = path.join(repoRoot, "apps/server/data");
  if (isDefault && !existsSync(resolved) && existsSync(path.join(legacy, "pg"))) return legacy;
  return resolved;
}
