import { Text } from "@mantine/core";
import { IconCloudUpload } from "@tabler/icons-react";
import { type DragEvent, type ReactNode, useRef, useState } from "react";
import { notifyError } from "../../../lib/notify";
import { dragHasFiles, uploadNewVersion } from "../../uploads";

export interface VersionUpload {
  /** Opens the file picker. */
  pick(): void;
  /** Spread on the element files are dropped on. */
  dropTarget: {
    onDragEnter(event: DragEvent): void;
    onDragOver(event: DragEvent): void;
    onDragLeave(event: DragEvent): void;
    onDrop(event: DragEvent): void;
  };
  /** The hidden input and, while files are dragged over, the overlay saying what a drop does. */
  elements: ReactNode;
}

/**
 * "Upload new version" (issue 29) from the viewer: a file dropped on it, or picked from the version
 * menu, becomes the asset's newest version; the upload dialog opens on it ("v3 of {name}").
 * `asset` null: nothing may be uploaded (a commenter, a shared view), drops are left alone.
 */
export function useVersionUpload(workspaceId: string, asset: { id: string; name: string } | null): VersionUpload {
  const input = useRef<HTMLInputElement>(null);
  const depth = useRef(0);
  const [dragging, setDragging] = useState(false);
  const send = (files: readonly File[]) => {
    if (!asset || files.length === 0) return;
    if (files.length > 1) return notifyError("Drop one file to add it as a new version.");
    void uploadNewVersion(files[0]!, { workspaceId, assetId: asset.id, name: asset.name });
  };
  const ours = (event: DragEvent) => !!asset && dragHasFiles(event.dataTransfer);
  return {
    pick: () => input.current?.click(),
    dropTarget: {
      onDragEnter: (event) => {
        if (!ours(event)) return;
        event.preventDefault();
        depth.current += 1;
        setDragging(true);
      },
      onDragOver: (event) => {
        if (!ours(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "copy";
      },
      onDragLeave: () => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      },
      onDrop: (event) => {
        if (!ours(event)) return;
        event.preventDefault();
        event.stopPropagation();
        depth.current = 0;
        setDragging(false);
        send(Array.from(event.dataTransfer.files));
      },
    },
    elements: asset ? (
      <>
        <input
          ref={input}
          type="file"
          hidden
          aria-label={`New version of ${asset.name}`}
          data-testid="version-file-input"
          onChange={(event) => {
            send(Array.from(event.currentTarget.files ?? []));
            event.currentTarget.value = "";
          }}
        />
        {dragging && (
          <div
            aria-hidden
            data-testid="version-drop-overlay"
            style={{
              position: "absolute",
              inset: 12,
              zIndex: 50,
              display: "flex",
              flexDirection: "column",
              alignItems: "center",
              justifyContent: "center",
              gap: 8,
              border: "2px dashed var(--mantine-color-blue-4)",
              borderRadius: 12,
              background: "rgba(16, 24, 40, 0.82)",
              color: "var(--mantine-color-gray-0)",
              pointerEvents: "none",
            }}
          >
            <IconCloudUpload size={40} />
            <Text fw={650}>Drop to upload a new version of {asset.name}</Text>
          </div>
        )}
      </>
    ) : null,
  };
}
