import type { Asset, ReviewDecisionKind, ReviewerPage, ShareSettings } from "@hangar/contract";
import type { ReactNode } from "react";
import type { SharedReview } from "../comments";

/** A document page as the viewer uses it (a sharper page render may come with it later). */
export type ViewerPage = Asset["pages"][number] & { large_url?: string | null };

/**
 * The viewer in a shared view (spec 02 §2, §6): the asset comes through the link, the tabs follow
 * its flags, details are read-only, there is no Share, no Boards and no board name, and a product
 * logo link stands where Close was. The shared-view feature provides what differs.
 */
export interface SharedViewerOptions {
  token: string;
  /** Whose link: a share link's (the default) or an outside reviewer's (issue 30; its own comment calls). */
  via?: "share" | "review";
  settings: ShareSettings;
  /** The asset as the link answers it. */
  asset: { data: Asset | undefined; isError: boolean; error: unknown };
  identify: SharedReview["identify"];
  /** The fields tab as the link allows it. */
  renderFields(asset: Asset): ReactNode;
  /** The details tab's "Text in image", read through the link (the members' call would answer 401). */
  renderRecognisedText(asset: Asset): ReactNode;
  /** The product logo link shown instead of Close. */
  logo: ReactNode;
  /** Inside a shared board the viewer can go back to it (Escape and Back do too). */
  canClose: boolean;
  /** A download through the link (the Download button shows only when the link allows it). */
  download(asset: Asset): void;
  /** An outside reviewer's link (issue 30): the viewer shows their decision bar. */
  reviewer?: ReviewerLinkOptions | null;
}

/** What an outside reviewer's page lends the viewer for its decision bar (issue 30). */
export interface ReviewerLinkOptions {
  /** The link's page as last answered: the review, the reviewer and every asset's state. */
  page: ReviewerPage;
  /** The decision on its way. */
  pending: ReviewDecisionKind | null;
  /** Resolves once recorded; rejects when refused (the page has said why). */
  decide(input: {
    assetId: string;
    versionId: string | null;
    decision: ReviewDecisionKind;
    note: string;
  }): Promise<unknown>;
  /** Opens another asset of the review. */
  open(assetId: string): void;
}
