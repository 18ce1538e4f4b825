import type { Writable } from "node:stream";
import { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";
import pinoPretty from "pino-pretty";
import type { LogFormat } from "../config.ts";

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

/**
 * The logger of a Hangar process: JSON lines, or (`pretty`, a terminal) one readable line per entry —
 * time, level, message, and for a request its method, path, status and time; the dev outbox's lines
 * marked and coloured so an invite link is found at once (issue 35). `destination` is for tests.
 */
export function createLogger(level: string, format: LogFormat = "json", destination?: Writable): Logger {
  if (format === "json") return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
  return pino(loggerOptions(level), prettyStream(destination));
}

const ANSI = { bold: "\x1b[1m", magenta: "\x1b[35m", reset: "\x1b[0m" };

interface Entry {
  msg?: string;
  outbox?: boolean;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

function prettyStream(destination?: Writable): DestinationStream {
  const colour = !destination;
  return pinoPretty({
    colorize: colour,
    singleLine: true,
    translateTime: "SYS:HH:MM:ss",
    ignore: "pid,hostname,reqId,req,res,responseTime,outbox",
    sync: true,
    ...(destination ? { destination } : {}),
    messageFormat: (log) => {
      const e = log as Entry;
      if (e.req && e.res && e.msg === "request completed")
        return `${e.req.method} ${e.req.url} ${e.res.statusCode} ${Math.round(e.responseTime ?? 0)} ms`;
      if (e.outbox) {
        const mark = `✉  ${e.msg}`;
        return colour ? `${ANSI.bold}${ANSI.magenta}${mark}${ANSI.reset}` : mark;
      }
      return e.msg ?? "";
    },
  });
}

/**
 * Fastify's request lines, one per request instead of two ("incoming request" and "request
 * completed"): at `debug` in a terminal where a person reads the log, at `info` for machines
 * (`config.requestLogLevel`); a request that errored stays at `error`.
 */
export class RequestLogController extends LogController {
  constructor(private readonly level: "debug" | "info") {
    super({});
  }
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log[this.level](line, "request completed");
  }
}
