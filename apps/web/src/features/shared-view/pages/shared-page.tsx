import { type Asset, SHARE_MESSAGES, type SharedPayload } from "@hangar/contract";
import { Loader } from "@mantine/core";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useParams, useSearchParams } from "react-router-dom";
import { CenteredPage, PasswordPrompt, SharedError, useNoIndex } from "../../../entities/public-link";
import { withoutVersionParams } from "../../../entities/version";
import { isApiError } from "../../../lib/api-client";
import { useReturnFocus } from "../../../lib/focus-return";
import { notifyError } from "../../../lib/notify";
import { ProductMark } from "../../../ui/product-mark";
import { RecognisedTextView } from "../../fields";
import { useSharedAsset, useSharedPayload, useSharedRecognisedText } from "../../shares";
import { useAnonymousIdentity } from "../anonymous-dialog";
import { SharedFieldsPanel } from "../shared-fields-panel";
import { SharedBoardView } from "./shared-board-view";

const AssetViewer = lazy(async () => ({ default: (await import("../../viewer")).AssetViewer }));

/**
 * A download through the link (spec 02 §2, §8): the original's signed URL, checked first so a refused
 * or expired one says "Failed to download" instead of saving an error page.
 */
async function downloadThroughLink(asset: Asset) {
  try {
    if (!asset.url) throw new Error("no url");
    const head = await fetch(asset.url, { method: "HEAD", credentials: "same-origin" });
    if (!head.ok) throw new Error(String(head.status));
    const a = document.createElement("a");
    a.href = asset.url;
    a.download = asset.file_extension ? `${asset.name.replace(/\.[^.]+$/, "")}.${asset.file_extension}` : asset.name;
    document.body.append(a);
    a.click();
    a.remove();
  } catch {
    notifyError(SHARE_MESSAGES.downloadFailed);
  }
}

/**
 * /s/{token}: the public shared content page (spec 02 §2, §6, §8). It asks for the password on 401,
 * says the link is over on 403, and shows a shared asset in the viewer or a shared board's grid.
 */
export function SharedPage() {
  const { token = "" } = useParams();
  // Each submitted password is a new attempt (the same text twice included).
  const [attempt, setAttempt] = useState<{ password: string | null; n: number }>({ password: null, n: 0 });
  const payload = useSharedPayload(token, attempt.password, attempt.n);
  const status = isApiError(payload.error) ? payload.error.status : null;
  // The prompt stays up while a typed password is checked, showing the last answer's error.
  const lastError = useRef<unknown>(null);
  if (payload.error) lastError.current = payload.error;
  const prompting = status === 401 || (payload.isFetching && !payload.isSuccess && attempt.n > 0);

  useNoIndex();
  useEffect(() => {
    const name = payload.data?.asset?.name ?? payload.data?.board?.name;
    document.title = name ? `${name} · shared on Hangar` : "Shared on Hangar";
  }, [payload.data]);

  if (prompting)
    return (
      <PasswordPrompt
        error={attempt.password !== null && !payload.isFetching ? lastError.current : null}
        busy={payload.isFetching}
        onSubmit={(p) => setAttempt((a) => ({ password: p, n: a.n + 1 }))}
      />
    );
  if (payload.isPending) return <CenteredPage>{<Loader />}</CenteredPage>;
  if (payload.isError) return <SharedError error={payload.error} />;
  return <SharedContent token={token} payload={payload.data} />;
}

function SharedContent({ token, payload }: { token: string; payload: SharedPayload }) {
  const { identify, dialog } = useAnonymousIdentity();
  const [params, setParams] = useSearchParams();
  const openAssetId = payload.asset ? payload.asset.id : params.get("asset");
  const settings = payload.share_settings;
  const asset = useSharedAsset(payload.board && openAssetId ? token : null, openAssetId ?? "");
  const renderFields = useCallback(
    (a: Asset) => (
      <SharedFieldsPanel
        token={token}
        asset={a}
        editable={settings.allow_editing_custom_fields && settings.show_custom_fields}
        identify={identify}
      />
    ),
    [token, settings, identify],
  );
  const renderRecognisedText = useCallback(
    (a: Asset) => <SharedRecognisedText token={token} assetId={a.id} />,
    [token],
  );
  const shared = useMemo(
    () => ({
      token,
      settings,
      asset: payload.asset
        ? { data: payload.asset, isError: false, error: null }
        : { data: asset.data, isError: asset.isError, error: asset.error },
      identify,
      renderFields,
      renderRecognisedText,
      logo: <ProductMark size="sm" />,
      canClose: !payload.asset,
      download: (a: Asset) => void downloadThroughLink(a),
    }),
    [
      token,
      settings,
      payload.asset,
      asset.data,
      asset.isError,
      asset.error,
      identify,
      renderFields,
      renderRecognisedText,
    ],
  );
  // Closing the viewer over a shared board puts focus on the card of the asset it showed last.
  const lastShown = useRef(openAssetId);
  if (openAssetId) lastShown.current = openAssetId;
  useReturnFocus(!!payload.board && !!openAssetId, () =>
    lastShown.current
      ? document.querySelector<HTMLElement>(
          `[data-testid="shared-card"][data-asset-id="${CSS.escape(lastShown.current)}"]`,
        )
      : null,
  );
  // In a shared board the viewer is a dialog over the grid; Back or Escape closes it (history).
  const closeViewer = () => {
    if (window.history.state?.idx > 0) window.history.back();
    else setParams({}, { replace: true });
  };

  return (
    <>
      {payload.board && (
        <SharedBoardView
          token={token}
          payload={payload}
          onOpen={(assetId) => setParams((p) => ({ ...Object.fromEntries(p), asset: assetId }))}
        />
      )}
      {openAssetId && (
        <Suspense fallback={<CenteredPage>{<Loader />}</CenteredPage>}>
          <AssetViewer
            key={openAssetId}
            workspaceId={payload.asset?.workspace_id ?? asset.data?.workspace_id ?? ""}
            assetId={openAssetId}
            boardId={null}
            mode={payload.asset ? "page" : "modal"}
            onClose={payload.asset ? () => undefined : closeViewer}
            onStep={(id) =>
              setParams(
                // The version shown (issue 29) was the previous asset's.
                (p) => ({ ...Object.fromEntries(new URLSearchParams(withoutVersionParams(`?${p}`))), asset: id }),
                { replace: true },
              )
            }
            onSwitchBoard={() => undefined}
            shared={shared}
          />
        </Suspense>
      )}
      {dialog}
    </>
  );
}

/** The Details tab's "Text in image" for a visitor: read through the link's own call (issue 35). */
function SharedRecognisedText({ token, assetId }: { token: string; assetId: string }) {
  return <RecognisedTextView text={useSharedRecognisedText(token, assetId)} />;
}
