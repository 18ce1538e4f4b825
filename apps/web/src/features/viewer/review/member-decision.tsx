import type { Asset } from "@hangar/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { assetKeys } from "../../../entities/asset";
import { withoutVersionParams } from "../../../entities/version";
import { useReviewLive, useViewerDecide, useViewerReview, withDecisionToasts } from "./api";
import { DecisionBar, type DecisionBarModel } from "./decision-bar";
import { memberDecisionView } from "./decision-state";

/** The address parameter naming the review an asset is opened in (the Reviews page sets it). */
export const REVIEW_PARAM = "review";

/**
 * The decision bar for a member (issue 30): the review is the one the address names (`?review=`),
 * else the asset's latest (`approval`). Shown when they are a reviewer of it and the asset is in it.
 * "Next asset in this review" opens the next one awaiting them with the review kept in the address.
 */
export function MemberDecision(props: {
  workspaceId: string;
  /** The asset as it is now (its current version). */
  asset: Asset;
  /** The version on screen (null: the current one). */
  shownVersionId: string | null;
  compact: boolean;
  onStep(assetId: string): void;
}) {
  const { workspaceId, asset, shownVersionId } = props;
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const reviewId = params.get(REVIEW_PARAM) ?? asset.approval?.review_id ?? null;
  const query = useViewerReview(workspaceId, reviewId);
  const review = query.data;
  useReviewLive(workspaceId, review, asset.id);
  const decide = useViewerDecide(workspaceId, reviewId ?? "");
  // The review may hear of a newer current version before the viewer's asset does (a stream opened
  // while it was promoted): the asset is fetched again, so the viewer shows what is decided on.
  const queryClient = useQueryClient();
  const reviewed = review?.assets.find((a) => a.asset_id === asset.id)?.current_version.number ?? 0;
  const behind = reviewed > (asset.current_version?.number ?? 1);
  useEffect(() => {
    if (behind) void queryClient.invalidateQueries({ queryKey: assetKeys.detail(workspaceId, asset.id), exact: true });
  }, [behind, queryClient, workspaceId, asset.id]);
  const view = useMemo(
    () => (review ? memberDecisionView(review, asset.id, shownVersionId) : null),
    [review, asset.id, shownVersionId],
  );
  if (!view || !review) return null;

  const next = () => {
    const id = view.nextAssetId;
    if (!id) return;
    // The viewer's address ends in /a/{asset}: the next one in its place, with this review named
    // (the next asset's latest review may be another) and without this asset's version.
    const search = new URLSearchParams(withoutVersionParams(location.search));
    search.set(REVIEW_PARAM, review.id);
    const pathname = location.pathname.replace(/\/a\/[^/]+$/, `/a/${id}`);
    if (pathname === location.pathname) return props.onStep(id);
    navigate({ pathname, search: `?${search}` }, { replace: true, state: location.state, preventScrollReset: true });
  };
  const model: DecisionBarModel = {
    view,
    pending: decide.isPending ? (decide.variables?.decision ?? null) : null,
    decide: (decision, note) =>
      withDecisionToasts(
        decide.mutateAsync({ assetId: asset.id, decision, note, versionId: view.versionId }),
        decision,
        asset.name,
      ),
    next,
  };
  return <DecisionBar model={model} compact={props.compact} />;
}
