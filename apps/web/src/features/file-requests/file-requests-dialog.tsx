import { type Board, type FileRequest, formatBytes } from "@hangar/contract";
import {
  ActionIcon,
  Badge,
  Button,
  Collapse,
  Group,
  Loader,
  Modal,
  NativeSelect,
  NumberInput,
  Paper,
  PasswordInput,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { IconCopy, IconInbox, IconTrash } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { copyLink, publicLink } from "../../entities/public-link";
import { errorMessage } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { useFileRequestMutations, useFileRequests } from "./api";
import { ReceivedFiles } from "./received-files";
import { requestState } from "./request-state";

const GB = 1024 ** 3;
const SIZES = [
  { value: String(100 * 1024 ** 2), label: "100 MB" },
  { value: String(500 * 1024 ** 2), label: "500 MB" },
  { value: String(GB), label: "1 GB" },
  { value: String(2 * GB), label: "2 GB" },
  { value: String(5 * GB), label: "5 GB" },
];

/**
 * "Request files" (issue 17): upload-only links for a board. People without an account open the
 * link and send files into the board, within its caps; the board's ADMIN and EDITOR make, pause and
 * delete the links here and see what came in.
 */
export function FileRequestsDialog(props: {
  workspaceId: string;
  board: Board | null;
  opened: boolean;
  onClose(): void;
}) {
  const { workspaceId, board } = props;
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={board ? `Request files into “${board.name}”` : "Request files"}
      size="lg"
    >
      {board && <Body workspaceId={workspaceId} boardId={board.id} />}
    </Modal>
  );
}

function Body({ workspaceId, boardId }: { workspaceId: string; boardId: string }) {
  const list = useFileRequests(workspaceId, boardId);
  const [adding, setAdding] = useState(false);
  if (list.isPending) return <Loader size="sm" />;
  if (list.isError) return <Text c="red">{errorMessage(list.error, "Failed to load the upload links")}</Text>;
  const showForm = adding || list.data.length === 0;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Anyone with an upload link can send files into this board, without an account. They see only what they sent;
        nothing else of the workspace.
      </Text>
      {list.data.map((r) => (
        <RequestRow key={r.id} workspaceId={workspaceId} boardId={boardId} request={r} />
      ))}
      {showForm ? (
        <NewRequestForm
          workspaceId={workspaceId}
          boardId={boardId}
          onDone={() => setAdding(false)}
          cancellable={list.data.length > 0}
        />
      ) : (
        <Group>
          <Button variant="light" leftSection={<IconInbox size={16} />} onClick={() => setAdding(true)}>
            New upload link
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function RequestRow({
  workspaceId,
  boardId,
  request: r,
}: {
  workspaceId: string;
  boardId: string;
  request: FileRequest;
}) {
  const { update, remove } = useFileRequestMutations(workspaceId, boardId);
  const [confirming, setConfirming] = useState(false);
  const state = requestState(r);
  const url = publicLink(r);
  const fail = (e: unknown) => notifyError(errorMessage(e, "Failed to update the upload link"));
  return (
    <Paper withBorder p="sm" radius="md" data-testid="file-request">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" miw={0} wrap="nowrap">
            {/* The badges keep their words on a phone; the title is what gives way. */}
            <Badge color={state.color} variant="light" flex="none">
              {state.label}
            </Badge>
            <Text fw={600} truncate>
              {r.title || "Upload link"}
            </Text>
            {r.has_password && (
              <Badge variant="outline" color="gray" flex="none">
                Password
              </Badge>
            )}
          </Group>
          <Switch
            label="Active"
            checked={r.is_active}
            disabled={update.isPending}
            onChange={(e) =>
              update.mutate({ id: r.id, body: { is_active: e.currentTarget.checked } }, { onError: fail })
            }
          />
        </Group>
        <Group gap="xs" wrap="nowrap">
          <TextInput value={url} readOnly flex={1} aria-label="Upload link" onFocus={(e) => e.currentTarget.select()} />
          <ActionIcon variant="default" size="lg" aria-label="Copy upload link" onClick={() => void copyLink(url)}>
            <IconCopy size={16} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label="Delete upload link"
            onClick={() => setConfirming(true)}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
        <Text size="xs" c="dimmed">
          {r.files_received} of {r.max_files} files received ({formatBytes(r.bytes_received)}), up to{" "}
          {formatBytes(r.max_file_bytes)} each
          {r.last_upload_at ? ` · last ${new Date(r.last_upload_at).toLocaleString()}` : ""}
          {r.expires_at ? ` · until ${new Date(r.expires_at).toLocaleString()}` : ""}
        </Text>
        <ReceivedFiles workspaceId={workspaceId} requestId={r.id} count={r.files_received} />
        {confirming && (
          <Group gap="xs" justify="flex-end">
            <Text size="sm">Delete this link? Files already sent stay in the board.</Text>
            <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
              Keep
            </Button>
            <Button
              size="xs"
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(r.id, {
                  onSuccess: () => notifySuccess("Upload link deleted"),
                  onError: (e) => notifyError(errorMessage(e, "Failed to delete the upload link")),
                })
              }
            >
              Delete
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function NewRequestForm(props: { workspaceId: string; boardId: string; cancellable: boolean; onDone(): void }) {
  const { create } = useFileRequestMutations(props.workspaceId, props.boardId);
  const [title, setTitle] = useState("");
  const [message, setMessage] = useState("");
  const [maxFiles, setMaxFiles] = useState<number | string>(50);
  const [maxSize, setMaxSize] = useState(String(2 * GB));
  const [options, setOptions] = useState(false);
  const [expires, setExpires] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    create.mutate(
      {
        title: title.trim() || undefined,
        message: message.trim() || undefined,
        max_files: Number(maxFiles) || 50,
        max_file_bytes: Number(maxSize),
        ...(expires ? { expires_at: new Date(expires).toISOString() } : {}),
        ...(password ? { password } : {}),
      },
      {
        onSuccess: (r) => {
          void copyLink(publicLink(r));
          props.onDone();
        },
        onError: (err) => setError(errorMessage(err, "Failed to create the upload link")),
      },
    );
  };
  return (
    <Paper withBorder p="md" radius="md" component="form" onSubmit={submit} aria-label="New upload link">
      <Stack gap="sm">
        <TextInput
          label="Title"
          placeholder="Send us your photos"
          value={title}
          maxLength={120}
          onChange={(e) => setTitle(e.currentTarget.value)}
        />
        <Textarea
          label="Message"
          placeholder="What to send, and by when"
          autosize
          minRows={2}
          maxLength={1000}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
        />
        <Group grow>
          <NumberInput
            label="Files at most"
            min={1}
            max={10000}
            value={maxFiles}
            onChange={setMaxFiles}
            allowDecimal={false}
          />
          <NativeSelect
            label="Size per file at most"
            data={SIZES}
            value={maxSize}
            onChange={(e) => setMaxSize(e.currentTarget.value)}
          />
        </Group>
        <Button variant="subtle" size="compact-sm" w="fit-content" onClick={() => setOptions((o) => !o)}>
          {options ? "Hide options" : "Expiry and password"}
        </Button>
        <Collapse expanded={options}>
          <Group grow align="flex-start">
            <TextInput
              type="datetime-local"
              label="Expires"
              value={expires}
              onChange={(e) => setExpires(e.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              value={password}
              maxLength={200}
              autoComplete="new-password"
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
          </Group>
        </Collapse>
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          {props.cancellable && (
            <Button variant="default" onClick={props.onDone}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={create.isPending}>
            Create link
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
