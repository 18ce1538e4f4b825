import type { Db } from "../../db/db.ts";
import { API_PREFIX } from "../../platform/session-hook.ts";

/**
 * What the gate needs of any public link's row, whatever its kind: its workspace, whether it is live,
 * and its password (with the version every unlock is bound to).
 */
export interface GatedLink {
  id: string;
  workspace_id: string;
  is_active: boolean;
  expires_at: Date | null;
  password_hash: string | null;
  password_version: number;
}

/**
 * One kind of public link (docs/architecture.md §10 "Public links are one thing with kinds"): share links,
 * request-files links, and the kinds to come (review, portal). The kind says where its links live and
 * what a visitor of one acts as; everything else (the token, the gate, throttling, the credential
 * cookie and its path, resolution through the read cache) is this module's and the same for every kind.
 */
export interface LinkKind<Row extends GatedLink = GatedLink, Visitor = unknown> {
  /**
   * `share`, `request`: the public API's segment (`/api/v1/<name>/:token`), the credential's cookie
   * (`hangar_<name>`) and its scope (a credential of one kind never opens another's), and the
   * per-link throttling keys.
   */
  name: string;
  /** The web app's page for a link (`/<page>/:token`): what members copy and visitors open. */
  page: string;
  /** The 404's text for a token no link of this kind has. */
  notFound: string;
  /**
   * The link behind a token, or undefined. A link of a deleted workspace (or whose content is gone)
   * is no link: the lookup leaves it out, so it answers as an unknown token does.
   */
  lookup(db: Db, token: string): Promise<Row | undefined>;
  /**
   * Resolved through the read cache: `table`'s rows must send their workspace's change key on every
   * change (the trigger public-links.test.ts checks), so a cached row is never stale. Null: the row is
   * read on every visit (request links count their uploads in it).
   */
  cache: { table: string } | null;
  /** The actor a visitor of this link acts as, for the services it calls: what the kind grants. */
  visitor(link: Row, visit: { fresh: boolean }): Visitor;
}

/** Declares a kind (its types inferred from its lookup and its visitor). */
export const defineLinkKind = <Row extends GatedLink, Visitor>(kind: LinkKind<Row, Visitor>) => kind;

/** A link's page in the web app: what members copy. */
export const linkPage = (kind: Pick<LinkKind, "page">, token: string) => `/${kind.page}/${token}`;
/** A link's public API, to which (and only to which) its credential cookie is sent. */
export const linkApiPath = (kind: Pick<LinkKind, "name">, token: string) =>
  `${API_PREFIX}/${kind.name}/${encodeURIComponent(token)}`;
/** The cookie holding a visitor's unlock of one link of the kind. */
export const credentialCookie = (kind: Pick<LinkKind, "name">) => `hangar_${kind.name}`;
