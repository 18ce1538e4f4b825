import { type Logger, type LoggerOptions, pino } from "pino";

// Single-use tokens travel in some paths and queries (verification, invites, resets, share links).
const TOKEN_IN_PATH = /\/(verify-email|verify-email-change|invites|share|s)\/[^/?]+/g;
const TOKEN_IN_QUERY = /([?&](?:token|signature|sig)=)[^&]+/gi;

export function redactUrl(url: string): string {
  return url.replace(TOKEN_IN_PATH, "/$1/[redacted]").replace(TOKEN_IN_QUERY, "$1[redacted]");
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
      req(req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) {
        return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip ?? req.socket?.remoteAddress };
      },
    },
  };
}

export function createLogger(level: string): Logger {
  return pino(loggerOptions(level));
}
