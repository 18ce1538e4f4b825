import { Button, Group, Loader } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconUpload } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { lazyNamed, WhenOpened } from "../../../lib/deferred";
import { useCurrentUser } from "../../auth";
import { bindQueryClient } from "../api";
import { claimUploadsFor } from "../upload-owner";
import { summarize, uploadStore, useUploads } from "../upload-store";

// Fetched the first time the dialog opens: not part of a workspace's first load.
const UploadDialog = lazyNamed(() => import("./upload-dialog"), "UploadDialog");

/** Above Mantine's `sm`: a phone's header has room for less (the workspace's name comes first). */
const useWide = () => useMediaQuery("(min-width: 48em)", true, { getInitialValueInEffect: false });

/** "Uploading N…" / "Processing N…" while anything is on its way and the dialog is closed; opens it. */
function UploadStatusIndicator() {
  const items = useUploads((s) => s.items);
  const dialogOpen = useUploads((s) => s.dialogOpen);
  const { uploading, processing } = useMemo(() => summarize(items), [items]);
  // The open dialog says it all already.
  const count = uploading || processing;
  const wide = useWide();
  const label = dialogOpen || !count ? null : `${uploading ? "Uploading" : "Processing"} ${count}…`;
  return (
    <div role="status" aria-live="polite">
      {label && (
        <Button
          variant="subtle"
          color="gray"
          size="compact-sm"
          leftSection={<Loader size={12} color="yellow.7" />}
          onClick={() => uploadStore.setDialogOpen(true)}
          data-testid="upload-status-indicator"
          aria-label={`${label} Open uploads`}
        >
          {/* A phone's header has room for the count only; the name says the rest. */}
          {wide ? label : count}
        </Button>
      )}
    </div>
  );
}

/**
 * The header's upload controls: the Upload button (editors and admins inside a workspace), the
 * status indicator and the dialog. Mounted for the whole signed-in shell, so uploads and polling
 * carry on across pages.
 */
export function UploadHeaderControls({ workspaceId, canUpload }: { workspaceId: string | null; canUpload: boolean }) {
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const dialogOpen = useUploads((s) => s.dialogOpen);
  const wide = useWide();

  useEffect(() => {
    bindQueryClient(queryClient);
  }, [queryClient]);
  useEffect(() => {
    claimUploadsFor(user.id);
  }, [user.id]);

  return (
    <Group gap="xs" wrap="nowrap">
      <UploadStatusIndicator />
      {workspaceId && canUpload && (
        <Button
          size="sm"
          leftSection={wide ? <IconUpload size={16} /> : undefined}
          px={wide ? undefined : "sm"}
          onClick={() => uploadStore.setDialogOpen(true)}
          data-testid="upload-button"
        >
          Upload
        </Button>
      )}
      <WhenOpened open={dialogOpen}>
        <UploadDialog workspaceId={workspaceId} />
      </WhenOpened>
    </Group>
  );
}
