import { type Logger, type LoggerOptions, pino } from "pino";

// Single-use tokens and public-link secrets travel in some paths and queries: verification, invites,
// resets, share links (/share/{t}, /s/{t}) and file requests (/request/{t}, /r/{t}). This catches them
// in any URL, routed or not (a 404 to a made-up path under a real token is logged too).
const TOKEN_IN_PATH = /\/(verify-email|verify-email-change|invites|share|s|request|r|review)\/[^/?]+/g;
const TOKEN_IN_QUERY = /([?&](?:token|signature|sig)=)[^&]+/gi;
/** A route parameter that is a secret: every public link's (`:token`), whatever the path around it. */
const SECRET_PARAM = /^:(?:\w*token)$/i;

export function redactUrl(url: string, route?: string): string {
  return redactRoute(url, route).replace(TOKEN_IN_PATH, "/$1/[redacted]").replace(TOKEN_IN_QUERY, "$1[redacted]");
}

/** The URL with each segment that fills a secret parameter of its route (`/x/:token/y`) redacted. */
function redactRoute(url: string, route: string | undefined): string {
  if (!route?.includes(":")) return url;
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  const pattern = route.split("/");
  const parts = path.split("/");
  if (pattern.length !== parts.length) return url;
  const out = parts.map((p, i) => (SECRET_PARAM.test(pattern[i]!) ? "[redacted]" : p));
  return out.join("/") + (q < 0 ? "" : url.slice(q));
}

/** pino options: request ids, and never a password, token, cookie or share password in a line. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        "req.headers.cookie",
        "req.headers.authorization",
        'req.headers["x-csrftoken"]',
        'req.headers["x-xsrf-token"]',
        'req.headers["x-share-password"]',
        'res.headers["set-cookie"]',
        "*.password",
        "*.new_password",
        "*.current_password",
        "*.token",
      ],
      censor: "[redacted]",
    },
    serializers: {
      req(req: {
        method: string;
        url: string;
        ip?: string;
        socket?: { remoteAddress?: string };
        routeOptions?: { url?: string };
      }) {
        return {
          method: req.method,
          url: redactUrl(req.url, req.routeOptions?.url),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        };
      },
    },
  };
}

export function createLogger(level: string): Logger {
  return pino(loggerOptions(level));
}
