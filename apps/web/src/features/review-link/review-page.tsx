import type { Asset, ReviewDecisionKind, ReviewerPage } from "@hangar/contract";
import { Loader } from "@mantine/core";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useParams, useSearchParams } from "react-router-dom";
import { CenteredPage, PasswordPrompt, SharedError, useNoIndex } from "../../entities/public-link";
import { isApiError } from "../../lib/api-client";
import { ProductMark } from "../../ui/product-mark";
import { reviewLinkKeys, useReviewerAsset, useReviewerDecide, useReviewerPage } from "./api";
import { ReviewOverview } from "./review-overview";

const AssetViewer = lazy(async () => ({ default: (await import("../viewer")).AssetViewer }));

/** What a reviewer's link lets them do, as the share-link flags say it (the server's REVIEWER_FLAGS). */
const REVIEWER_SETTINGS = {
  allow_commenting: true,
  show_comments: true,
  show_custom_fields: false,
  allow_editing_custom_fields: false,
  allow_downloads: false,
  show_versions: false,
  content_type: "asset",
  has_password: false,
  expires_at: null,
  watermarked: false,
} as const;
const ASSET_PARAM = "asset";

/**
 * /review/{token}: an outside reviewer's page (issue 30). Hangar's public frame: the password prompt on
 * 401, "link is over" on 403, not found on 404 (entities/public-link), then the review, its assets
 * and, for the one opened (`?asset=`), the viewer as share visitors have it, with comments under the
 * reviewer's name and their decision bar. Nothing of the workspace beyond the review is reachable.
 */
export function ReviewPage() {
  const { token = "" } = useParams();
  // Each submitted password is a new attempt (the same text twice included).
  const [attempt, setAttempt] = useState<{ password: string | null; n: number }>({ password: null, n: 0 });
  const page = useReviewerPage(token, attempt.password, attempt.n);
  const status = isApiError(page.error) ? page.error.status : null;
  // The prompt stays up while a typed password is checked, showing the last answer's error.
  const lastError = useRef<unknown>(null);
  if (page.error) lastError.current = page.error;
  const prompting = status === 401 || (page.isFetching && !page.isSuccess && attempt.n > 0);

  useNoIndex();
  useEffect(() => {
    const title = page.data?.review.title;
    document.title = title ? `${title} · review on Hangar` : "Review on Hangar";
  }, [page.data]);

  if (prompting)
    return (
      <PasswordPrompt
        error={attempt.password !== null && !page.isFetching ? lastError.current : null}
        busy={page.isFetching}
        hint="This review link is protected. Enter the password you were given."
        onSubmit={(p) => setAttempt((a) => ({ password: p, n: a.n + 1 }))}
      />
    );
  if (page.isPending) return <CenteredPage>{<Loader />}</CenteredPage>;
  // A link that stopped working while open (disabled, expired) says so at the next refresh.
  if (page.isError) return <SharedError error={page.error} />;
  return <ReviewContent token={token} page={page.data} pageKey={[...reviewLinkKeys.page(token), attempt.n]} />;
}

function ReviewContent(props: { token: string; page: ReviewerPage; pageKey: readonly unknown[] }) {
  const { token, page } = props;
  const [params, setParams] = useSearchParams();
  const openId = params.get(ASSET_PARAM);
  const inReview = openId !== null && page.assets.some((a) => a.asset.id === openId);
  const asset = useReviewerAsset(token, inReview ? openId : null);
  const decide = useReviewerDecide(token, props.pageKey);
  const order = page.assets.map((a) => a.asset);
  const at = inReview ? order.findIndex((a) => a.id === openId) : -1;

  const open = useCallback((id: string) => setParams({ [ASSET_PARAM]: id }), [setParams]);
  // Stepping replaces the address (Back still returns to the list); closing goes back to the list.
  const step = useCallback((id: string) => setParams({ [ASSET_PARAM]: id }, { replace: true }), [setParams]);
  const close = () => {
    if (window.history.state?.idx > 0) window.history.back();
    else setParams({}, { replace: true });
  };
  const identify = useCallback(
    async () => ({ name: page.reviewer.name, email: page.reviewer.email || null }),
    [page.reviewer.name, page.reviewer.email],
  );
  const { mutateAsync } = decide;
  const pending = decide.isPending ? (decide.variables?.decision ?? null) : null;
  const shared = useMemo(
    () => ({
      token,
      settings: REVIEWER_SETTINGS,
      asset: { data: asset.data, isError: asset.isError, error: asset.error },
      identify,
      via: "review" as const,
      renderFields: () => null,
      renderRecognisedText: () => null,
      logo: <ProductMark size="sm" />,
      canClose: true,
      download: () => undefined,
      reviewer: {
        page,
        pending: pending as ReviewDecisionKind | null,
        decide: (input: { assetId: string; versionId: string | null; decision: ReviewDecisionKind; note: string }) =>
          mutateAsync({ ...input, workspaceId: asset.data?.workspace_id ?? "" }),
        open: step,
      },
    }),
    [token, asset.data, asset.isError, asset.error, identify, page, pending, mutateAsync, step],
  );

  return (
    <>
      <ReviewOverview page={page} onOpen={open} />
      {inReview && openId && (
        <Suspense fallback={<CenteredPage>{<Loader />}</CenteredPage>}>
          <AssetViewer
            workspaceId={asset.data?.workspace_id ?? ""}
            assetId={openId}
            boardId={null}
            mode="modal"
            onClose={close}
            onStep={step}
            onSwitchBoard={() => undefined}
            previous={at > 0 ? (order[at - 1] as Asset) : null}
            next={at >= 0 ? (order[at + 1] ?? null) : null}
            shared={shared}
          />
        </Suspense>
      )}
    </>
  );
}
