import type { FastifyRequest } from "fastify";

/**
 * A mutation whose `Origin` (or, without one, `Referer`) names another site is refused with the
 * CSRF error, a second line behind the token. Same site means the host the request was sent to
 * (`Host`, or `X-Forwarded-Host` from a trusted proxy). Requests without either header (scripts,
 * curl, older clients) rely on the token alone.
 */
export function foreignOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin ?? req.headers.referer;
  if (!origin) return false;
  if (origin === "null") return true; // sandboxed frames and some redirects: never our own pages
  try {
    // Both through URL, so a default port (":80", ":443") compares equal to none.
    return new URL(origin).host !== new URL(`${req.protocol}://${req.host}`).host;
  } catch {
    return true;
  }
}
