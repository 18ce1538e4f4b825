import type { IncomingMessage } from "node:http";
import { PassThrough, type Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { API_PREFIX } from "./session-hook.ts";

/** No request body of ours nests deeper than a handful of levels; 32 leaves room and refuses floods. */
export const MAX_JSON_DEPTH = 32;
/** Bodies of sign-in, sign-up, account and invitation calls are a few short strings. */
export const SMALL_BODY_LIMIT = 16 * 1024;

/**
 * An answer given before its request's body was read (a 413 mid-way, a 403 before the first byte):
 * up to this many declared bytes are read and dropped so the connection serves its next request;
 * a larger body closes the connection after the answer instead.
 */
export const UNREAD_BODY_DRAIN_BYTES = 4 * 1024 * 1024;

export class JsonTooDeepError extends Error {
  readonly statusCode = 400;
  readonly code = "HANGAR_JSON_TOO_DEEP";
  constructor() {
    super(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
}

/**
 * Deepest nesting of `[`/`{` outside strings, stopping as soon as it exceeds `max`. One linear pass
 * over the text with no allocation, so a hostile body costs about as much as reading it, whereas
 * JSON.parse on a million nested arrays held the event loop for half a second.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/**
 * Request-body defences (issue 12 item 2): the JSON parser refuses excessive nesting before parsing,
 * and routes that take only small bodies (public routes and the account's own calls) get a small
 * body limit, so an unauthenticated caller cannot make us read or parse megabytes.
 */
export function installBodyParsing(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    const text = body as string;
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return done(new JsonTooDeepError(), undefined);
    parseJson(req, text, done);
  });

  // A connection is only reusable once the request's body has been read to its end: otherwise the next
  // request on it waits behind bytes nobody reads (a browser reusing it hangs, a stop waits it out).
  app.addHook("onSend", async (req, reply, payload) => {
    const raw = req.raw;
    if (typeof raw.complete !== "boolean" || raw.complete || reply.raw.headersSent) return payload;
    const declared = Number(raw.headers["content-length"]);
    const drainable = !raw.destroyed && Number.isFinite(declared) && declared <= UNREAD_BODY_DRAIN_BYTES;
    if (!drainable) reply.header("connection", "close");
    // Drop what still arrives (also while a closing connection sends its answer, so the peer reads it
    // rather than a reset): the request is done with.
    if (!raw.destroyed) raw.unpipe().resume();
    return payload;
  });

  app.addHook("onRoute", (route) => {
    if (route.bodyLimit !== undefined || !route.url.startsWith(API_PREFIX)) return;
    const cfg = route.config as { access?: string; csrf?: boolean } | undefined;
    // Routes with csrf:false carry their own proof and may stream large bodies (signed upload parts).
    if (cfg?.csrf === false) return;
    const path = route.url.slice(API_PREFIX.length);
    if (cfg?.access === "public" || path.startsWith("/users/") || path.startsWith("/invites/")) {
      route.bodyLimit = SMALL_BODY_LIMIT;
    }
  });
}

/**
 * The request's body as a stream its consumer may destroy when it refuses the body mid-way (too large)
 * without destroying the request: the request stays whole, and the answer's hook above drains it or
 * closes the connection. (A pipeline over the request itself detaches it from its socket on error,
 * leaving the rest of the body unread on a connection that stays open.)
 */
export function bodyStream(req: IncomingMessage): Readable {
  const body = new PassThrough({ highWaterMark: 1 << 20 });
  // A sender gone mid-body (a browser aborting a part) fails the stream with its reason; a route
  // still checking the request has not begun to read it, and an error nobody listens to would end
  // the process. Whoever reads it later is told all the same (the stream is destroyed with it).
  body.on("error", () => undefined);
  req.on("error", (err) => body.destroy(err));
  return req.pipe(body);
}
