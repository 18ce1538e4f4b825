import type { Db } from "../../db/db.ts";
import { auditVisitor } from "../../platform/audit-context.ts";
import type { RateLimiter } from "../../platform/rate-limit.ts";
import { cacheKeys, type ReadCache } from "../../platform/read-cache.ts";
import type { Signer } from "../../storage/signer.ts";
import { createLinkGate, type VisitInput } from "./gate.ts";
import type { GatedLink, LinkKind } from "./kind.ts";

/** A visit let through the gate: the link, who its visitor acts as, the caller's address. */
export interface LinkVisit<Row extends GatedLink, Visitor> {
  link: Row;
  visitor: Visitor;
  /** The caller's address: what visitors do is throttled by it. */
  ip: string;
  /** A fresh credential to store (the password was just given right). */
  credential?: string;
}

/** The public side of one kind: a token (and what came with it) in, a visit (or the gate's refusal) out. */
export interface LinkResolver<Row extends GatedLink, Visitor> {
  kind: LinkKind<Row, Visitor>;
  resolve(input: VisitInput): Promise<LinkVisit<Row, Visitor>>;
}

/**
 * Public links (docs/architecture.md §10): each kind registers here once and gets its resolver. Resolving a token
 * is the same for every kind: the link from the read cache when the kind's table keeps it coherent
 * (as sessions are: any change to the link, or to anything in its workspace, voids the cached row at
 * once in this process and within the notification's latency in others), else from the database; then
 * the gate, which still judges expiry and the password on every request; then the kind's visitor.
 */
export function createPublicLinks(deps: { db: Db; limiter: RateLimiter; signer: Signer; cache: ReadCache }) {
  const { db, cache } = deps;
  // biome-ignore lint/suspicious/noExplicitAny: kinds of any row and visitor share one registry
  const kinds = new Map<string, LinkKind<any, any>>();

  function register(kind: LinkKind<GatedLink, unknown>) {
    const same = kinds.get(kind.name);
    if (same === kind) return;
    // A kind's name is its API path, cookie and credential scope; its page, the web app's route.
    const clash = same ?? [...kinds.values()].find((k) => k.page === kind.page);
    if (clash) throw new Error(`public link kind "${kind.name}" clashes with "${clash.name}"`);
    kinds.set(kind.name, kind);
  }

  return {
    /** Registers a kind of link and answers its resolver. */
    kind<Row extends GatedLink, Visitor>(kind: LinkKind<Row, Visitor>): LinkResolver<Row, Visitor> {
      register(kind as LinkKind<GatedLink, unknown>);
      const gate = createLinkGate(deps, kind.name);
      async function linkByToken(token: string, fresh: boolean): Promise<Row | undefined> {
        if (!kind.cache) return kind.lookup(db, token);
        const key = cacheKeys.linkToken(`${kind.name}:${token}`);
        const hit = fresh ? undefined : cache.get<Row>(key);
        if (hit) return hit;
        const snap = cache.snapshot();
        const link = await kind.lookup(db, token);
        if (link) cache.set(key, link, [cacheKeys.workspace(link.workspace_id)], snap);
        return link;
      }
      return {
        kind,
        async resolve(input) {
          const fresh = input.fresh === true;
          const link = await linkByToken(input.token, fresh);
          if (!link) return gate.unknown(input.ip, kind.notFound);
          const { credential } = await gate.pass(link, input);
          const visitor = kind.visitor(link, { fresh });
          // What this visit changes is recorded as the link's visitor's doing (the audit log).
          auditVisitor(visitor);
          return { link, visitor, ip: input.ip, ...(credential ? { credential } : {}) };
        },
      };
    },
    /** Every kind registered (the redaction and cache-trigger checks walk them). */
    kinds: (): ReadonlyArray<LinkKind> => [...kinds.values()],
  };
}
export type PublicLinks = ReturnType<typeof createPublicLinks>;
