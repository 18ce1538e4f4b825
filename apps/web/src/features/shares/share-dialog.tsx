import {
  SHARE_MESSAGES,
  type ShareActivity,
  type ShareLinkWithActivity,
  shareSummary,
  type UpdateShareLinkBody,
} from "@hangar/contract";
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Collapse,
  CopyButton,
  Divider,
  Group,
  Loader,
  Modal,
  PasswordInput,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from "@mantine/core";
import { IconCaretDown, IconCaretRight, IconCopy, IconCopyCheck, IconExternalLink } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { copyLink, publicLink } from "../../entities/public-link";
import { errorMessage } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { type ShareTarget, useShareLink, useShareLinkMutations } from "./api";
import { WatermarkSection } from "./watermark-section";

const ACTIVITY_LABELS: Record<ShareActivity["kind"], string> = {
  open: "Opens",
  view: "Assets viewed",
  download: "Downloads",
  comment: "Comments",
  field_edit: "Field edits",
};

/** `datetime-local` works in local time without a zone: convert both ways. */
const toLocalInput = (iso: string | null) => {
  if (!iso) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/**
 * The share dialog (spec 02 §2, §4, §5, §8): titled "Share {content type}", at least 450 wide. It
 * gets or creates the link on opening; each toggle saves at once; "Sharing options" holds the expiry
 * and the password (sent only when set; turning protection off clears it and saves). A failure to
 * open closes the dialog with "Failed to open share dialog: …" (or the board variant).
 */
export function ShareDialog(props: { opened: boolean; onClose(): void; target: ShareTarget; itemName: string }) {
  const { target, opened, onClose } = props;
  const query = useShareLink(opened ? target : null);
  const link = query.data;
  const kind = target.type === "asset" ? "Asset" : "Board";

  useEffect(() => {
    if (!opened || !query.isError) return;
    const prefix = target.type === "asset" ? SHARE_MESSAGES.openFailed : SHARE_MESSAGES.openBoardFailed;
    notifyError(`${prefix}${errorMessage(query.error, SHARE_MESSAGES.getFailed)}`);
    onClose();
  }, [opened, query.isError, query.error, target.type, onClose]);

  return (
    <Modal
      opened={opened && !query.isError}
      onClose={onClose}
      title={`Share ${kind}`}
      size={480}
      styles={{ content: { minWidth: "min(450px, 100vw)" } }}
      data-escape-local
    >
      {!link ? (
        <Group justify="center" py="xl">
          <Loader size="sm" />
        </Group>
      ) : (
        <ShareLinkForm link={link} target={target} itemName={props.itemName} onClose={onClose} />
      )}
    </Modal>
  );
}

function ShareLinkForm(props: { link: ShareLinkWithActivity; target: ShareTarget; itemName: string; onClose(): void }) {
  const { link, target } = props;
  const { update, remove } = useShareLinkMutations(target);
  const [optionsOpen, setOptionsOpen] = useState(link.has_password || link.expires_at !== null);
  const [protect, setProtect] = useState(link.has_password);
  const [password, setPassword] = useState("");
  const [expiry, setExpiry] = useState(toLocalInput(link.expires_at));
  const [markOpen, setMarkOpen] = useState(Boolean(link.watermark));
  const url = publicLink(link);

  const save = (body: Omit<UpdateShareLinkBody, "board_id">) =>
    update.mutate(body, { onError: (e) => notifyError(errorMessage(e, SHARE_MESSAGES.updateFailed)) });
  const flag = (
    key: keyof typeof link & keyof UpdateShareLinkBody,
    label: string,
    opts: { disabled?: boolean } = {},
  ) => (
    <Switch
      label={label}
      checked={Boolean(link[key])}
      disabled={opts.disabled || update.isPending}
      onChange={(e) => {
        const on = e.currentTarget.checked;
        // Editing fields needs them shown (spec 02 §5): hiding them ends editing in the same save.
        save(
          key === "show_custom_fields" && !on
            ? { show_custom_fields: false, allow_editing_custom_fields: false }
            : { [key]: on },
        );
      }}
      data-testid={`share-flag-${key}`}
    />
  );

  return (
    <Stack gap="md" data-testid="share-dialog">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" c="dimmed" truncate="end">
          {props.itemName}
        </Text>
        <Badge variant="light" color={link.is_active ? "blue" : "gray"} data-testid="share-summary">
          {shareSummary(link)}
        </Badge>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <TextInput value={url} readOnly aria-label="Share link" style={{ flex: 1 }} data-testid="share-url" />
        <CopyButton value={url}>
          {({ copied }) => (
            <Tooltip label={copied ? "Copied" : "Copy link"}>
              <ActionIcon
                variant="light"
                size="lg"
                aria-label="Copy link"
                onClick={() => void copyLink(url)}
                data-testid="share-copy"
              >
                {copied ? <IconCopyCheck size={18} /> : <IconCopy size={18} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      {!link.is_active && (
        <Alert color="gray" variant="light">
          This link is disabled: visitors see "{SHARE_MESSAGES.expired}".
        </Alert>
      )}
      <Stack gap="xs">
        {flag("is_active", "Link active")}
        {flag("show_comments", "Show comments")}
        {flag("allow_commenting", "Allow commenting", { disabled: !link.show_comments })}
        {flag("show_custom_fields", SHARE_MESSAGES.showCustomFields)}
        {flag("allow_editing_custom_fields", "Allow editing custom fields", { disabled: !link.show_custom_fields })}
        {flag("allow_downloads", "Allow downloads")}
        {/* Issue 29: visitors switch between the asset's versions and read each one's comments. */}
        {flag("show_versions", "Show versions")}
      </Stack>

      <UnstyledButton onClick={() => setOptionsOpen((o) => !o)} aria-expanded={optionsOpen}>
        <Group gap={6}>
          {optionsOpen ? <IconCaretDown size={16} /> : <IconCaretRight size={16} />}
          <Text fw={600} size="sm">
            {SHARE_MESSAGES.sharingOptions}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={optionsOpen}>
        <Stack gap="sm" pl="md">
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              type="datetime-local"
              label="Expires"
              value={expiry}
              onChange={(e) => setExpiry(e.currentTarget.value)}
              style={{ flex: 1 }}
              data-testid="share-expiry"
            />
            <Button
              variant="light"
              size="sm"
              disabled={expiry === toLocalInput(link.expires_at)}
              onClick={() => save({ expires_at: expiry ? new Date(expiry).toISOString() : null })}
            >
              {expiry ? "Set" : "Clear"}
            </Button>
          </Group>
          <Switch
            label="Password protection"
            checked={protect}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setProtect(on);
              // Spec 02 §4: turning protection off clears the password and saves.
              if (!on && link.has_password) save({ password: null });
            }}
            data-testid="share-password-toggle"
          />
          {protect && (
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <PasswordInput
                label={link.has_password ? "New password" : "Password"}
                placeholder={link.has_password ? "A password is set" : "Choose a password"}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                style={{ flex: 1 }}
                maxLength={200}
                autoComplete="new-password"
                data-testid="share-password"
              />
              <Button
                variant="light"
                size="sm"
                disabled={password === ""}
                loading={update.isPending}
                onClick={() =>
                  update.mutate(
                    { password },
                    {
                      onSuccess: () => {
                        setPassword("");
                        notifySuccess("Password saved");
                      },
                      onError: (e) => notifyError(errorMessage(e, SHARE_MESSAGES.updateFailed)),
                    },
                  )
                }
                data-testid="share-password-save"
              >
                Save
              </Button>
            </Group>
          )}
        </Stack>
      </Collapse>

      <UnstyledButton onClick={() => setMarkOpen((o) => !o)} aria-expanded={markOpen} data-testid="watermark-heading">
        <Group gap={6}>
          {markOpen ? <IconCaretDown size={16} /> : <IconCaretRight size={16} />}
          <Text fw={600} size="sm">
            Watermark
          </Text>
          {link.watermark && (
            <Badge size="xs" variant="light">
              On
            </Badge>
          )}
        </Group>
      </UnstyledButton>
      <Collapse expanded={markOpen}>
        <WatermarkSection
          watermark={link.watermark}
          allowDownloads={link.allow_downloads}
          title={props.itemName}
          saving={update.isPending}
          onSave={(watermark) =>
            update.mutate(
              { watermark },
              {
                onSuccess: () => notifySuccess(watermark ? "Watermark saved" : "Watermark removed"),
                onError: (e) => notifyError(errorMessage(e, SHARE_MESSAGES.updateFailed)),
              },
            )
          }
        />
      </Collapse>

      {link.activity.length > 0 && (
        <>
          <Divider label="Activity" labelPosition="left" />
          <Group gap="lg" data-testid="share-activity">
            {link.activity.map((a) => (
              <Stack key={a.kind} gap={0}>
                <Text fw={650}>{a.count}</Text>
                <Text size="xs" c="dimmed" title={`Last: ${new Date(a.last_at).toLocaleString()}`}>
                  {ACTIVITY_LABELS[a.kind]}
                </Text>
              </Stack>
            ))}
          </Group>
        </>
      )}

      <Group justify="space-between" mt="xs">
        <Button
          variant="subtle"
          color="red"
          size="compact-sm"
          loading={remove.isPending}
          onClick={() =>
            remove.mutate(undefined, {
              onSuccess: () => {
                notifySuccess("Share link deleted");
                props.onClose();
              },
              onError: (e) => notifyError(errorMessage(e, SHARE_MESSAGES.deleteFailed)),
            })
          }
        >
          Delete link
        </Button>
        <Group gap="xs">
          <Button variant="default" onClick={props.onClose}>
            Close
          </Button>
          <Button
            leftSection={<IconExternalLink size={16} />}
            onClick={() => window.open(url, "_blank", "noopener")}
            data-testid="share-preview"
          >
            {SHARE_MESSAGES.previewLink}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
