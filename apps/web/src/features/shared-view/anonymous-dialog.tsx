import { ANONYMOUS_INFO_KEY, SHARE_MESSAGES } from "@hangar/contract";
import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { type ReactNode, useCallback, useRef, useState } from "react";
import type { AnonymousInfo } from "../comments";

/** The visitor's stored name and e-mail (spec 02 §3: one local-storage key), or null when never given. */
export function loadAnonymousInfo(): AnonymousInfo | null {
  try {
    const raw = localStorage.getItem(ANONYMOUS_INFO_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<AnonymousInfo>;
    return { name: typeof v.name === "string" ? v.name : null, email: typeof v.email === "string" ? v.email : null };
  } catch {
    return null;
  }
}

function saveAnonymousInfo(info: AnonymousInfo) {
  try {
    localStorage.setItem(ANONYMOUS_INFO_KEY, JSON.stringify(info));
  } catch {
    // Private mode or a full store: the visitor is asked again next time, nothing else breaks.
  }
}

/** Spec 02 §5: trimmed, empty sent as null. */
const clean = (v: string) => (v.trim() === "" ? null : v.trim());
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The anonymous flow (spec 02 §4): `identify()` answers the stored info at once; otherwise it opens
 * "Post Comment or Edit Custom Field" and answers what the visitor confirms (and stores it), or null
 * when they cancel, which discards the action that asked.
 */
export function useAnonymousIdentity(): { identify(): Promise<AnonymousInfo | null>; dialog: ReactNode } {
  const [open, setOpen] = useState(false);
  const pending = useRef<((info: AnonymousInfo | null) => void) | null>(null);
  const identify = useCallback(() => {
    const stored = loadAnonymousInfo();
    if (stored) return Promise.resolve(stored);
    return new Promise<AnonymousInfo | null>((resolve) => {
      pending.current?.(null);
      pending.current = resolve;
      setOpen(true);
    });
  }, []);
  const finish = (info: AnonymousInfo | null) => {
    if (info) saveAnonymousInfo(info);
    setOpen(false);
    pending.current?.(info);
    pending.current = null;
  };
  return { identify, dialog: <AnonymousDialog opened={open} onDone={finish} /> };
}

function AnonymousDialog({ opened, onDone }: { opened: boolean; onDone(info: AnonymousInfo | null): void }) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const emailError = email.trim() !== "" && !EMAIL.test(email.trim()) ? "Enter a valid e-mail address" : null;
  return (
    <Modal
      opened={opened}
      onClose={() => onDone(null)}
      title={SHARE_MESSAGES.anonymousTitle}
      size={420}
      styles={{ content: { minWidth: 400 } }}
      data-escape-local
      centered
      // Above the full-screen viewer it is asked from.
      zIndex={1000}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (emailError) return;
          onDone({ name: clean(name), email: clean(email) });
        }}
      >
        <Stack gap="sm" data-testid="anonymous-dialog">
          <Text size="sm" c="dimmed">
            Tell the team who you are. Both are optional; they are kept in this browser for next time.
          </Text>
          <TextInput
            label="Name"
            placeholder="Your name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            autoComplete="name"
            maxLength={100}
            data-autofocus
          />
          <TextInput
            label="E-mail"
            placeholder="you@example.com"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            autoComplete="email"
            error={emailError}
            maxLength={254}
          />
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={() => onDone(null)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!!emailError}>
              Continue
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
