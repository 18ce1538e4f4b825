import type { Asset } from "@hangar/contract";
import { ActionIcon, Button, Tooltip } from "@mantine/core";
import { IconChecklist } from "@tabler/icons-react";
import { lazy, useState } from "react";
import { WhenOpened } from "../../../lib/deferred";

const RequestReviewDialog = lazy(() =>
  import("./request-review-dialog").then((m) => ({ default: m.RequestReviewDialog })),
);

/** The viewer header's "Request review" for the asset shown (a button; an icon on a phone). */
export function RequestReviewButton({ workspaceId, asset }: { workspaceId: string; asset: Asset }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="light"
        color="gray"
        size="compact-sm"
        leftSection={<IconChecklist size={16} />}
        onClick={() => setOpen(true)}
        visibleFrom="sm"
        data-testid="viewer-request-review"
      >
        Request review
      </Button>
      <Tooltip label="Request review">
        <ActionIcon
          variant="subtle"
          color="gray.0"
          aria-label="Request review"
          hiddenFrom="sm"
          onClick={() => setOpen(true)}
        >
          <IconChecklist size={18} />
        </ActionIcon>
      </Tooltip>
      <WhenOpened open={open}>
        <RequestReviewDialog
          workspaceId={workspaceId}
          target={{ kind: "assets", assetIds: [asset.id] }}
          subject="this asset"
          defaultTitle={asset.name}
          opened={open}
          onClose={() => setOpen(false)}
        />
      </WhenOpened>
    </>
  );
}
