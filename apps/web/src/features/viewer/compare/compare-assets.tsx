import { Modal } from "@mantine/core";
import { useAsset } from "../../../entities/asset";
import { relativeTime } from "../../../entities/format";
import { versionLabel } from "../../../entities/version";
import { errorMessage } from "../../../lib/api-client";
import { type CompareSide, CompareView } from "./compare-view";

/**
 * Compare two assets (issue 29), from the grid's bulk bar: each as its current version, side by
 * side (or overlaid when they are two images of the same shape), in a full-screen dialog.
 */
export function CompareAssets(props: { workspaceId: string; assetIds: [string, string]; onClose(): void }) {
  const { workspaceId, assetIds } = props;
  const a = useAsset(workspaceId, assetIds[0]);
  const b = useAsset(workspaceId, assetIds[1]);
  const failed = a.error ?? b.error;
  const side = (asset: NonNullable<typeof a.data>): CompareSide => ({
    key: asset.id,
    label: asset.name,
    detail: [
      (asset.version_count ?? 1) > 1 && asset.current_version ? versionLabel(asset.current_version.number) : null,
      `uploaded ${relativeTime(asset.date_uploaded)}`,
    ]
      .filter(Boolean)
      .join(" · "),
    asset,
    version: asset.current_version,
  });
  const sides: [CompareSide, CompareSide] | null = a.data && b.data ? [side(a.data), side(b.data)] : null;
  return (
    <Modal.Root opened onClose={props.onClose} fullScreen trapFocus returnFocus>
      <Modal.Content
        aria-label="Compare"
        data-testid="compare-dialog"
        style={{ background: "var(--mantine-color-dark-8)", color: "var(--mantine-color-gray-0)" }}
      >
        <CompareView
          workspaceId={workspaceId}
          title="Compare"
          sides={sides}
          error={failed && !sides ? errorMessage(failed, "Failed to fetch asset") : null}
          onClose={props.onClose}
        />
      </Modal.Content>
    </Modal.Root>
  );
}
