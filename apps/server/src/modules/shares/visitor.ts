import { visitorOfLink } from "../../platform/access.ts";
import type { VisitorActor } from "../../platform/actor.ts";
import { defineLinkKind, type LinkVisit, type PublicLinks } from "../public-links/index.ts";
import { type ShareLinkRow, sharesRepo } from "./repo.ts";

/**
 * Share links as a kind of public link (docs/architecture.md §9, §10): the token opens `/s/{token}` and
 * `/api/v1/share/{token}/…`; a visitor acts as a share-link visitor, seeing what the link shares and
 * doing what its flags allow (the access layer judges both). Resolved through the read cache: every
 * change to a link sends its workspace's key (migration 20261128-0101).
 */
export const SHARE_LINKS = defineLinkKind({
  name: "share",
  page: "s",
  notFound: "Share link not found.",
  lookup: sharesRepo.byToken,
  cache: { table: "share_links" },
  visitor: (link: ShareLinkRow, { fresh }): VisitorActor => ({
    ...visitorOfLink(link, true),
    ...(fresh ? { fresh } : {}),
  }),
});

/** A resolved visit of a share link: who (the visitor) through which link, from where. */
export type Visit = LinkVisit<ShareLinkRow, VisitorActor>;

/** Turns a public share request into a share-link visitor, or refuses it (the public links' gate). */
export function createVisitorResolver(deps: { links: PublicLinks }) {
  return deps.links.kind(SHARE_LINKS);
}
export type VisitorResolver = ReturnType<typeof createVisitorResolver>;
