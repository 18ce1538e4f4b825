import type { Asset, AssetVersion } from "@hangar/contract";
import { Select } from "@mantine/core";
import type { ReactNode } from "react";
import { relativeTime } from "../../../entities/format";
import { versionLabel, versionView } from "../../../entities/version";
import { useDownload } from "../../downloads";
import { type CompareSide, CompareView } from "../compare/compare-view";
import type { SharedViewerOptions } from "../viewer-types";
import { useVersionActions } from "./api";
import { useShownVersion } from "./use-shown-version";
import { VersionMenu } from "./version-menu";
import { useVersionUpload, type VersionUpload } from "./version-upload";

export interface ViewerVersions {
  /** The asset as the version shown makes it (undefined while that version loads). */
  shown: Asset | undefined;
  /** The version shown, for the review (null: the current one, not known yet). */
  review: { version: { id: string; number: number } | null; showVersion(n: number): void };
  /** The header's "v3 ▾" (null in a shared view). */
  menu: ReactNode;
  upload: VersionUpload;
  /** Compare in place of the viewer's body, while the address asks for it (`&compare=N`). */
  compare: ReactNode | null;
  closeCompare(): void;
}

const detailOf = (v: AssetVersion) =>
  `${v.is_current ? "current · " : ""}${relativeTime(v.created_at)}${v.uploaded_by ? ` · ${v.uploaded_by.name}` : ""}`;

/**
 * Everything the viewer does with versions (issue 29): which one is shown (`?version=N`), the
 * header's version menu and its actions, uploading a new version by drop or pick, and compare.
 * `shared`: a share link's visitor: with the link's `show_versions` they switch and compare versions
 * (and read each one's comments), nothing more; without it, the current version only.
 */
export function useViewerVersions(
  workspaceId: string,
  asset: Asset | undefined,
  shared: SharedViewerOptions | null,
): ViewerVersions {
  const visitor = shared ? (shared.settings.show_versions ? shared.token : "none") : null;
  const state = useShownVersion(workspaceId, asset, visitor !== "none", visitor === "none" ? null : visitor);
  const { version, versions, compareWith } = state;
  const actions = useVersionActions(workspaceId, asset?.id ?? "");
  const download = useDownload(workspaceId);
  const upload = useVersionUpload(workspaceId, asset && !shared && asset.abilities.edit ? asset : null);
  const shownId = version?.id ?? asset?.current_version?.id ?? null;
  const shownNumber = version?.number ?? asset?.current_version?.number ?? null;
  const afterLeaving = (v: AssetVersion) => {
    // The version on screen went away: back to the current one.
    if (v.id === shownId) state.show(null);
  };

  const menu =
    asset && visitor !== "none" && (!shared || (asset.version_count ?? 1) > 1) ? (
      <VersionMenu
        asset={asset}
        versions={versions}
        error={state.versionsQuery.error}
        onRetry={() => void state.versionsQuery.refetch()}
        shownId={shownId}
        onShow={(v) => state.show(v.number)}
        onCompare={(a, b) => {
          state.show(a.number);
          state.compare(b.number);
        }}
        onUpload={upload.pick}
        onMakeCurrent={(v) => actions.makeCurrent.mutate(v)}
        onDownload={(v) =>
          shared
            ? shared.download(versionView(asset, v))
            : void download.downloadAsset({ id: asset.id, name: v.name, size: v.size, versionId: v.id })
        }
        onDelete={(v) => actions.remove.mutate(v, { onSuccess: () => afterLeaving(v) })}
        onDetach={(v) => actions.detach.mutate(v, { onSuccess: () => afterLeaving(v) })}
      />
    ) : null;

  let compare: ReactNode | null = null;
  if (asset && visitor !== "none" && versions && compareWith && version && compareWith.id !== version.id) {
    const completed = (versions ?? []).filter((v) => v.status === "COMPLETED");
    const picker = (value: AssetVersion, other: AssetVersion, pick: (n: number) => void) => (
      <Select
        size="xs"
        w={92}
        aria-label={`Version on this side (${versionLabel(value.number)})`}
        value={String(value.number)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data={completed
          .filter((v) => v.id !== other.id)
          .map((v) => ({ value: String(v.number), label: versionLabel(v.number) }))}
        onChange={(n) => n && pick(Number(n))}
      />
    );
    const side = (v: AssetVersion, other: AssetVersion, pick: (n: number) => void): CompareSide => ({
      key: v.id,
      label: versionLabel(v.number),
      detail: detailOf(v),
      asset: versionView(asset, v),
      version: { id: v.id, number: v.number },
      picker: picker(v, other, pick),
    });
    // The older version on the left.
    const [left, right] = version.number < compareWith.number ? [version, compareWith] : [compareWith, version];
    const pickLeft = left.id === version.id ? state.show : state.compare;
    const pickRight = right.id === version.id ? state.show : state.compare;
    compare = (
      <CompareView
        workspaceId={workspaceId}
        title={`Compare versions of ${asset.name}`}
        sides={[side(left, right, pickLeft), side(right, left, pickRight)]}
        shared={shared ? { token: shared.token, identify: shared.identify } : null}
        onClose={() => state.compare(null)}
      />
    );
  }

  return {
    shown: state.shown,
    review: {
      // A visitor without the link's show_versions: the current version, as the server takes it.
      version: shownId && shownNumber !== null && visitor !== "none" ? { id: shownId, number: shownNumber } : null,
      showVersion: state.show,
    },
    menu,
    upload,
    compare,
    closeCompare: () => state.compare(null),
  };
}
