import type { Asset } from "@hangar/contract";
import type { ReviewerLinkOptions } from "../viewer-types";
import { withDecisionToasts } from "./api";
import { DecisionBar } from "./decision-bar";
import { externalDecisionView } from "./decision-state";

/** An outside reviewer's decision bar (issue 30): the state from their link's page, deciding through it. */
export function ExternalDecision(props: { reviewer: ReviewerLinkOptions; asset: Asset; compact: boolean }) {
  const { reviewer, asset } = props;
  const view = externalDecisionView(reviewer.page, asset.id);
  if (!view) return null;
  return (
    <DecisionBar
      compact={props.compact}
      model={{
        view,
        pending: reviewer.pending,
        decide: (decision, note) =>
          withDecisionToasts(
            reviewer.decide({ assetId: asset.id, versionId: view.versionId, decision, note }),
            decision,
            asset.name,
          ),
        next: () => view.nextAssetId && reviewer.open(view.nextAssetId),
      }}
    />
  );
}
