import { type Asset, type DuplicateGroup, formatBytes } from "@hangar/contract";
import { Anchor, Badge, Box, Button, Group, Paper, Radio, Stack, Text } from "@mantine/core";
import { IconEyeOff, IconStack2, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { AssetThumb } from "../../../entities/asset";
import type { GroupAction } from "../api";
import classes from "./duplicate-group-card.module.css";

/** The one kept by default: the largest (what the server's `reclaimable` assumes), the first on a tie. */
export function defaultKeep(group: DuplicateGroup): string {
  let best = group.assets[0];
  for (const a of group.assets) if (best && a.size > best.size) best = a;
  return best?.id ?? group.asset_ids[0] ?? "";
}

/** What keeping `keepId` frees: the bytes of the others. */
export function freedBy(group: DuplicateGroup, keepId: string): number {
  return group.assets.reduce((sum, a) => (a.id === keepId ? sum : sum + a.size), 0);
}

const dimensions = (a: Asset) => (a.width && a.height ? `${a.width} × ${a.height}` : null);
const day = (iso: string) => new Date(iso).toLocaleDateString();

function Member({ asset, workspaceId, editable }: { asset: Asset; workspaceId: string; editable: boolean }) {
  return (
    <Paper withBorder radius="md" className={classes.member} data-testid="duplicate-member">
      <Box className={classes.thumb}>
        <AssetThumb asset={asset} fileType={asset.file_type} iconSize={28} />
      </Box>
      <Stack gap={2} p="xs">
        <Anchor component={Link} to={`/w/${workspaceId}/a/${asset.id}`} size="sm" fw={600} truncate="end">
          {asset.name}
        </Anchor>
        <Text size="xs" c="dimmed">
          {[formatBytes(asset.size), dimensions(asset)].filter(Boolean).join(" · ")}
        </Text>
        <Text size="xs" c="dimmed">
          Uploaded {day(asset.date_uploaded)}
        </Text>
        {editable && (
          <Radio value={asset.id} label="Keep this one" size="xs" mt={4} aria-label={`Keep ${asset.name}`} />
        )}
      </Stack>
    </Paper>
  );
}

/**
 * One group of the duplicates review, side by side: each asset's picture, name, size, dimensions and
 * date; for editors which one to keep, what that frees, and the three actions (keep it and move the
 * others to Recently deleted, stack the others as its versions, dismiss the group).
 */
export function DuplicateGroupCard({
  group,
  workspaceId,
  editable,
  pending,
  busy,
  onAction,
}: {
  group: DuplicateGroup;
  workspaceId: string;
  editable: boolean;
  /** The action running on this group. */
  pending: GroupAction | null;
  /** Another group's action is running. */
  busy: boolean;
  onAction: (action: GroupAction, keepId: string) => void;
}) {
  const [keepId, setKeepId] = useState(() => defaultKeep(group));
  const kept = group.assets.find((a) => a.id === keepId);
  const exact = group.kind === "exact";
  const members = (
    <div className={classes.members}>
      {group.assets.map((asset) => (
        <Member key={asset.id} asset={asset} workspaceId={workspaceId} editable={editable} />
      ))}
    </div>
  );
  const label = exact ? "Exact duplicates" : "Look alike";
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-label={`${label}: ${group.count} assets`}>
      <Stack gap="sm" data-testid="duplicate-group">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="wrap">
            <Badge variant="light" color={exact ? "red" : "brand"}>
              {label}
            </Badge>
            <Text size="sm" fw={600}>
              {group.count} assets · {formatBytes(group.size)}
            </Text>
          </Group>
          <Text size="sm" c="dimmed" data-testid="duplicate-freed">
            {editable && kept
              ? `Keeping ${kept.name} frees ${formatBytes(freedBy(group, keepId))}`
              : `Up to ${formatBytes(group.reclaimable)} could be freed`}
          </Text>
        </Group>
        {editable ? (
          <Radio.Group value={keepId} onChange={setKeepId} aria-label="Asset to keep">
            {members}
          </Radio.Group>
        ) : (
          members
        )}
        {editable && (
          <Group gap="xs" wrap="wrap">
            <Button
              size="sm"
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              loading={pending === "keep"}
              disabled={busy || (pending !== null && pending !== "keep")}
              onClick={() => onAction("keep", keepId)}
              data-testid="duplicate-keep"
            >
              Keep one, delete {group.count - 1}
            </Button>
            <Button
              size="sm"
              variant="light"
              leftSection={<IconStack2 size={16} />}
              loading={pending === "stack"}
              disabled={busy || (pending !== null && pending !== "stack")}
              onClick={() => onAction("stack", keepId)}
              data-testid="duplicate-stack"
            >
              Stack as versions
            </Button>
            <Button
              size="sm"
              variant="subtle"
              color="gray"
              leftSection={<IconEyeOff size={16} />}
              loading={pending === "dismiss"}
              disabled={busy || (pending !== null && pending !== "dismiss")}
              onClick={() => onAction("dismiss", keepId)}
              data-testid="duplicate-dismiss"
            >
              Dismiss
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
