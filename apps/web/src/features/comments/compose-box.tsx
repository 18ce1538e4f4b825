import { SEVERITIES, type Severity } from "@hangar/contract";
import {
  ActionIcon,
  Badge,
  Box,
  CloseButton,
  Group,
  Menu,
  Paper,
  Text,
  Textarea,
  Tooltip,
  UnstyledButton,
} from "@mantine/core";
import { IconFlag, IconSend } from "@tabler/icons-react";
import { type KeyboardEvent, useMemo, useRef, useState } from "react";
import { UserAvatar } from "../../ui/user-avatar";
import { useMembers } from "../members";
import { rangeTime } from "./drawing/tools";
import { clock, mentionQuery } from "./review-math";
import { SEVERITY_STYLE } from "./severity";

export interface ComposeValue {
  text: string;
  severity: Severity;
  mentions: string[];
  timestamp: number | null;
  /** A range on the timeline (I and O): from `timestamp` for this long. */
  duration: number | null;
}

/**
 * The compose box (spec 02 §5): Enter sends, Shift+Enter adds a line, nothing is sent while the
 * trimmed text is empty. `@` suggests workspace members; a severity can be set; on a paused video the
 * comment is stamped with the current time.
 */
export function ComposeBox(props: {
  workspaceId: string;
  placeholder: string;
  busy: boolean;
  /** The paused video's time, when there is one: offered as a stamp. */
  videoTime?: () => number | null;
  /** The in/out range made on the video (I and O), which the comment takes instead of the paused time. */
  videoRange?: { in: number; out: number } | null;
  onClearRange?(): void;
  withSeverity?: boolean;
  autoFocus?: boolean;
  initial?: string;
  submitLabel?: string;
  onSubmit(value: ComposeValue): Promise<boolean> | boolean;
  onCancel?(): void;
  testId?: string;
  /** `@` suggestions of members (off for share-link visitors, who cannot list members). */
  mentions?: boolean;
}) {
  const [text, setText] = useState(props.initial ?? "");
  const [severity, setSeverity] = useState<Severity>("none");
  const [mentioned, setMentioned] = useState<Array<{ id: string; name: string }>>([]);
  const [suggest, setSuggest] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const [stampOff, setStampOff] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const members = useMembers(props.workspaceId, props.mentions !== false);
  // The paused video's time, read when the box is used (the player moves meanwhile).
  const [stamp, setStamp] = useState<number | null>(null);
  const readStamp = () => setStamp(props.videoTime?.() ?? null);

  const options = useMemo(() => {
    if (!suggest) return [];
    const q = suggest.query.toLowerCase();
    return (members.data ?? [])
      .filter((m) => `${m.first_name} ${m.last_name} ${m.email}`.toLowerCase().includes(q))
      .slice(0, 6);
  }, [suggest, members.data]);

  const pick = (m: { user_id: string; first_name: string; last_name: string; email: string }) => {
    if (!suggest) return;
    const name = `${m.first_name} ${m.last_name}`.trim() || m.email;
    const caret = suggest.start + 1 + suggest.query.length;
    const next = `${text.slice(0, suggest.start)}@${name} ${text.slice(caret)}`;
    setText(next);
    setMentioned((list) => (list.some((x) => x.id === m.user_id) ? list : [...list, { id: m.user_id, name }]));
    setSuggest(null);
    requestAnimationFrame(() => {
      const at = suggest.start + name.length + 2;
      input.current?.setSelectionRange(at, at);
      input.current?.focus();
    });
  };

  const range = props.videoRange ?? null;
  const send = async () => {
    const body = text.trim();
    if (!body || props.busy) return;
    // Only members still named in the text count as mentioned.
    const mentions = mentioned.filter((m) => body.includes(`@${m.name}`)).map((m) => m.id);
    const ok = await props.onSubmit({
      text: body,
      severity,
      mentions,
      ...(range ? rangeTime(range) : { timestamp: stampOff ? null : (props.videoTime?.() ?? null), duration: null }),
    });
    if (ok) {
      setText("");
      setSeverity("none");
      setMentioned([]);
      setStampOff(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggest && options.length) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setActive((i) => (i + (e.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        pick(options[Math.min(active, options.length - 1)]!);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setSuggest(null);
        return;
      }
    }
    if (e.key === "Escape" && props.onCancel) {
      e.preventDefault();
      props.onCancel();
    } else if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <Box pos="relative" data-escape-local={props.onCancel ? "" : undefined} data-testid={props.testId}>
      {suggest && options.length > 0 && (
        <Paper
          shadow="md"
          withBorder
          radius="md"
          p={4}
          role="listbox"
          aria-label="Mention a member"
          style={{ position: "absolute", bottom: "100%", left: 0, right: 0, marginBottom: 4, zIndex: 10 }}
        >
          {options.map((m, i) => (
            <UnstyledButton
              key={m.user_id}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(m)}
              w="100%"
              p={6}
              style={{ borderRadius: 6, background: i === active ? "var(--mantine-color-default-hover)" : undefined }}
            >
              <Group gap={8} wrap="nowrap">
                <UserAvatar person={m} size={22} />
                <Text size="sm" truncate="end">
                  {`${m.first_name} ${m.last_name}`.trim() || m.email}
                </Text>
              </Group>
            </UnstyledButton>
          ))}
        </Paper>
      )}
      <Textarea
        ref={input}
        autoFocus={props.autoFocus}
        autosize
        minRows={1}
        maxRows={8}
        placeholder={props.placeholder}
        aria-label={props.placeholder}
        value={text}
        onChange={(e) => {
          const value = e.currentTarget.value;
          setText(value);
          readStamp();
          setSuggest(mentionQuery(value, e.currentTarget.selectionStart ?? value.length));
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        onFocus={readStamp}
        onBlur={() => setTimeout(() => setSuggest(null), 150)}
        rightSectionWidth={36}
        rightSection={
          <Tooltip label={props.submitLabel ?? "Send (Enter)"}>
            <ActionIcon
              variant="filled"
              aria-label={props.submitLabel ?? "Send comment"}
              disabled={!text.trim()}
              loading={props.busy}
              onClick={() => void send()}
              data-testid="comment-send"
            >
              <IconSend size={16} />
            </ActionIcon>
          </Tooltip>
        }
      />
      {(props.withSeverity || stamp !== null || range) && (
        <Group gap={6} mt={6}>
          {props.withSeverity && (
            <Menu position="top-start" withinPortal>
              <Menu.Target>
                <Badge
                  component="button"
                  type="button"
                  variant={severity === "none" ? "default" : "light"}
                  color={SEVERITY_STYLE[severity].color}
                  leftSection={<IconFlag size={12} />}
                  style={{ cursor: "pointer" }}
                  aria-label={`Severity: ${SEVERITY_STYLE[severity].label}`}
                  data-testid="severity-picker"
                >
                  {SEVERITY_STYLE[severity].label}
                </Badge>
              </Menu.Target>
              <Menu.Dropdown>
                {SEVERITIES.map((s) => (
                  <Menu.Item
                    key={s}
                    onClick={() => setSeverity(s)}
                    color={s === "none" ? undefined : SEVERITY_STYLE[s].color}
                  >
                    {SEVERITY_STYLE[s].label}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
          {range && (
            <Badge
              variant="light"
              color="grape"
              data-testid="video-range-stamp"
              rightSection={
                props.onClearRange && (
                  <CloseButton size="xs" aria-label="Clear the range" onClick={props.onClearRange} />
                )
              }
            >
              {clock(range.in)} – {clock(range.out)}
            </Badge>
          )}
          {!range && stamp !== null && !stampOff && (
            <Badge
              variant="light"
              color="grape"
              data-testid="video-stamp"
              rightSection={
                <CloseButton size="xs" aria-label="Do not stamp the time" onClick={() => setStampOff(true)} />
              }
            >
              at {clock(stamp)}
            </Badge>
          )}
        </Group>
      )}
    </Box>
  );
}
