import { FileRequestMessages } from "@hangar/contract";
import { defineLinkKind } from "../public-links/index.ts";
import { fileRequestsRepo, type RequestLinkRow } from "./repo.ts";

/**
 * Who a request link's visitor uploads as: the request's maker, on whose behalf the files go into the
 * board (their right to upload is checked as a URL issuer's is); null once the maker is gone, and the
 * request lapses with their right.
 */
export type RequestUploader = { kind: "on-behalf"; userId: string } | null;

/**
 * Request-files links as a kind of public link (issue 17 "Request files", docs/architecture.md §10): the token
 * opens `/r/{token}` and `/api/v1/request/{token}/…`, through the same gate as every public link. Read
 * on every visit, not cached: the row counts the files received, which the page shows at once.
 */
export const REQUEST_LINKS = defineLinkKind({
  name: "request",
  page: "r",
  notFound: FileRequestMessages.notFound,
  lookup: fileRequestsRepo.byToken,
  cache: null,
  visitor: (link: RequestLinkRow): RequestUploader =>
    link.created_by ? { kind: "on-behalf", userId: link.created_by } : null,
});
