import { FileRequestMessages, type FileRequestPage, formatBytes, requestUploadsApi } from "@hangar/contract";
import { Badge, Box, Button, Group, Loader, Paper, Progress, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconCloudUpload, IconFiles } from "@tabler/icons-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useParams } from "react-router-dom";
import { CenteredPage, PasswordPrompt, SharedError, useNoIndex } from "../../entities/public-link";
import { callApi, errorMessage, isApiError } from "../../lib/api-client";
import { dragHasFiles, filesFromDrop, forEachLimit, fromFileList, putBytes, sendParts } from "../uploads";
import { useRequestPage, visitHeaders, visitIdFor } from "./api";

const NAME_KEY = "hangar:request-name";
const AT_ONCE = 2;
type Item = { key: string; file: File; loaded: number; status: "waiting" | "sending" | "failed"; error?: string };

/**
 * /r/{token}: the public upload page of a file request (issue 17). No account: the visitor sees the
 * request's title and message, drops files (or picks them) and watches each one go; what this visit
 * sent is listed from the server. A password prompt on 401, the link's end on 403.
 */
export function RequestPage() {
  const { token = "" } = useParams();
  const visitId = useMemo(() => visitIdFor(token), [token]);
  const [attempt, setAttempt] = useState<{ password: string | null; n: number }>({ password: null, n: 0 });
  const page = useRequestPage(token, visitId, attempt.password, attempt.n);
  const lastError = useRef<unknown>(null);
  if (page.error) lastError.current = page.error;
  const status = isApiError(page.error) ? page.error.status : null;
  const prompting = status === 401 || (page.isFetching && !page.isSuccess && attempt.n > 0);

  useNoIndex();
  useEffect(() => {
    document.title = page.data ? `Send files to ${page.data.board_name} · Hangar` : "Send files · Hangar";
  }, [page.data]);

  if (prompting)
    return (
      <PasswordPrompt
        hint="This upload link is protected. Enter the password you were given."
        error={attempt.password !== null && !page.isFetching ? lastError.current : null}
        busy={page.isFetching}
        onSubmit={(p) => setAttempt((a) => ({ password: p, n: a.n + 1 }))}
      />
    );
  if (page.isPending) return <CenteredPage>{<Loader />}</CenteredPage>;
  if (page.isError) return <SharedError error={page.error} />;
  return <Uploader token={token} visitId={visitId} info={page.data} refresh={() => void page.refetch()} />;
}

function Uploader(props: { token: string; visitId: string; info: FileRequestPage; refresh(): void }) {
  const { token, visitId, info } = props;
  const [items, setItems] = useState<Item[]>([]);
  const [name, setName] = useState(() => localStorage.getItem(NAME_KEY) ?? "");
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const patch = (key: string, next: Partial<Item>) =>
    setItems((list) => list.map((i) => (i.key === key ? { ...i, ...next } : i)));
  const busy = items.some((i) => i.status !== "failed");

  // Leaving mid-upload loses the files in flight: the browser asks first.
  useEffect(() => {
    if (!busy) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [busy]);

  async function sendOne(item: Item) {
    patch(item.key, { status: "sending" });
    const headers = visitHeaders(visitId);
    try {
      const answer = await callApi(requestUploadsApi.init, {
        params: { token },
        headers,
        body: {
          name: item.file.name,
          size: item.file.size,
          content_type: item.file.type || undefined,
          uploader_name: name.trim() || null,
        },
      });
      const report = (loaded: number) => patch(item.key, { loaded });
      const ctrl = new AbortController();
      const parts = answer.direct_url
        ? [{ part_number: 1, etag: await putBytes(answer.direct_url, item.file, report, ctrl.signal) }]
        : await sendParts(item.file, answer.parts ?? [], report, ctrl.signal);
      await callApi(requestUploadsApi.complete, {
        params: { token },
        headers,
        body: { upload_id: answer.upload_id, key: answer.key, parts },
      });
      setItems((list) => list.filter((i) => i.key !== item.key));
    } catch (error) {
      patch(item.key, { status: "failed", error: errorMessage(error, "Upload failed") });
    } finally {
      props.refresh();
    }
  }

  function add(files: File[]) {
    if (files.length === 0) return;
    localStorage.setItem(NAME_KEY, name.trim());
    let left = info.files_left - items.filter((i) => i.status !== "failed").length;
    const fresh: Item[] = files.map((file) => {
      const item: Item = { key: `${Date.now()}-${Math.random()}`, file, loaded: 0, status: "waiting" };
      // Said before sending, in the server's words; the server checks again either way.
      if (file.size > info.max_file_bytes)
        return { ...item, status: "failed", error: FileRequestMessages.tooLarge(info.max_file_bytes) };
      if (left <= 0) return { ...item, status: "failed", error: FileRequestMessages.full(info.max_files) };
      left--;
      return item;
    });
    setItems((list) => [...list, ...fresh]);
    void forEachLimit(
      fresh.filter((i) => i.status === "waiting"),
      AT_ONCE,
      sendOne,
    );
  }

  const heading = info.title || `Send files to ${info.board_name}`;
  return (
    <CenteredPage>
      <Paper withBorder shadow="sm" radius="md" p="xl" w={560} maw="100%" data-testid="request-page">
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={1} size="h2">
              {heading}
            </Title>
            <Text size="sm" c="dimmed">
              For {info.workspace_name} · {info.board_name}
            </Text>
            {info.message && <Text style={{ whiteSpace: "pre-wrap" }}>{info.message}</Text>}
          </Stack>
          <TextInput
            label="Your name (optional)"
            description="Kept with the files you send, for the people who asked for them."
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Box
            role="button"
            tabIndex={0}
            data-testid="request-drop"
            p="xl"
            style={{
              border: `2px dashed var(--mantine-color-${dragging ? "blue-5" : "gray-4"})`,
              borderRadius: 12,
              background: dragging ? "var(--mantine-color-blue-0)" : "white",
              cursor: "pointer",
              textAlign: "center",
            }}
            onClick={() => input.current?.click()}
            onKeyDown={(e) => {
              if (e.key !== "Enter" && e.key !== " ") return;
              e.preventDefault();
              input.current?.click();
            }}
            onDragOver={(e) => {
              if (!dragHasFiles(e.dataTransfer)) return;
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(e) => {
              e.preventDefault();
              setDragging(false);
              void filesFromDrop(e.dataTransfer).then((picked) => add(picked.map((p) => p.file)));
            }}
          >
            <Stack align="center" gap={6}>
              <IconCloudUpload size={36} color="var(--mantine-color-blue-6)" />
              <Text fw={600}>Drop files here</Text>
              <Button component="span" size="xs" variant="light" leftSection={<IconFiles size={14} />}>
                Choose files
              </Button>
              <Text size="xs" c="dimmed">
                {info.files_left} of {info.max_files} files left · up to {formatBytes(info.max_file_bytes)} each
                {info.expires_at ? ` · open until ${new Date(info.expires_at).toLocaleString()}` : ""}
              </Text>
            </Stack>
          </Box>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            data-testid="request-input"
            onChange={(e) => {
              add(fromFileList(e.currentTarget.files).map((p) => p.file));
              e.currentTarget.value = "";
            }}
          />
          {items.length > 0 && (
            <Stack gap="xs" aria-label="Sending">
              {items.map((i) => (
                <Stack key={i.key} gap={4}>
                  <Group justify="space-between" wrap="nowrap">
                    <Text size="sm" truncate>
                      {i.file.name}
                    </Text>
                    <Text size="xs" c={i.status === "failed" ? "red" : "dimmed"}>
                      {i.status === "failed" ? "Not sent" : i.status === "waiting" ? "Waiting" : formatBytes(i.loaded)}
                    </Text>
                  </Group>
                  {i.status === "failed" ? (
                    <Text size="xs" c="red" role="alert">
                      {i.error}
                    </Text>
                  ) : (
                    <Progress value={i.file.size ? (100 * i.loaded) / i.file.size : 100} size="sm" animated />
                  )}
                </Stack>
              ))}
            </Stack>
          )}
          <SentList uploads={info.uploads} sending={new Set(items.map((i) => i.file.name))} />
        </Stack>
      </Paper>
    </CenteredPage>
  );
}

const STATUS_TEXT: Record<string, { label: string; color: string }> = {
  COMPLETED: { label: "Received", color: "green" },
  processing: { label: "Received", color: "green" },
  error: { label: "Received", color: "green" },
  uploading: { label: "Incomplete", color: "orange" },
};

/** What this visit sent (the server's list: nothing of anyone else's). */
function SentList({ uploads, sending }: { uploads: FileRequestPage["uploads"]; sending: Set<string> }) {
  if (uploads.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Files you send show here. Only you see this list.
      </Text>
    );
  return (
    <Stack gap={6} data-testid="request-sent">
      <Text size="sm" fw={600}>
        Sent from this page ({uploads.length})
      </Text>
      {uploads.map((u) => {
        // Still going out from this page: not "incomplete" yet.
        const s =
          u.status === "uploading" && sending.has(u.name)
            ? { label: "Sending", color: "blue" }
            : (STATUS_TEXT[u.status] ?? STATUS_TEXT.COMPLETED!);
        return (
          <Group key={u.asset_id} justify="space-between" wrap="nowrap">
            <Text size="sm" truncate>
              {u.name}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Text size="xs" c="dimmed">
                {formatBytes(u.size)}
              </Text>
              <Badge size="sm" variant="light" color={s.color}>
                {s.label}
              </Badge>
            </Group>
          </Group>
        );
      })}
    </Stack>
  );
}
