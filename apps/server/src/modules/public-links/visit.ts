import { SHARE_PASSWORD_HEADER } from "@hangar/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { MUTATING } from "../../platform/http.ts";
import { UNLOCK_TTL_SECONDS, type VisitInput } from "./gate.ts";
import { credentialCookie, type LinkKind, linkApiPath } from "./kind.ts";

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === "string" && v !== "" ? v : undefined;
};

/**
 * The first step of every public route of a kind: the token, the password (only ever in
 * `X-Share-Password`), the kind's unlock cookie and the address go to `resolve`; a credential it mints
 * is stored in a cookie sent only to that link's API path, never readable by scripts.
 */
export function linkVisits<Visit extends { credential?: string }>(
  kind: Pick<LinkKind, "name">,
  deps: {
    resolve: (input: VisitInput, req: FastifyRequest) => Promise<Visit>;
    secureCookies: (req: FastifyRequest) => boolean;
  },
) {
  const cookie = credentialCookie(kind);
  return async function visit(req: FastifyRequest, reply: FastifyReply): Promise<Visit> {
    const token = (req.params as { token: string }).token;
    const got = await deps.resolve(
      {
        token,
        password: header(req, SHARE_PASSWORD_HEADER),
        credential: req.cookies[cookie],
        ip: req.ip,
        // A visitor's write is judged on the link as it is now, never on the read cache.
        fresh: MUTATING.has(req.method),
      },
      req,
    );
    if (got.credential)
      reply.setCookie(cookie, got.credential, {
        httpOnly: true,
        sameSite: "lax",
        secure: deps.secureCookies(req),
        path: linkApiPath(kind, token),
        maxAge: UNLOCK_TTL_SECONDS,
      });
    // What a visitor sees is theirs alone: no shared cache keeps it, no search engine lists it.
    reply.header("X-Robots-Tag", "noindex");
    return got;
  };
}

/** Reads a visitor's header (empty counts as absent): for what a kind takes beyond the gate's. */
export const visitorHeader = header;
