import type { OpenConfirmModal } from "@mantine/modals";
import { lazy, Suspense, useEffect, useSyncExternalStore } from "react";

/**
 * Confirm dialogs (Mantine modals) without Mantine's modal code in every first load: the modals
 * host mounts with the first confirm and stays, and the confirm opens once it listens. Only a few
 * pages ask to confirm (members, custom fields, comments); the sign-in page and the grid never do.
 */
let wanted = false;
let ready: Promise<void> | null = null;
let markReady: () => void = () => {};
const listeners = new Set<() => void>();

function mountHost(): Promise<void> {
  if (!ready) {
    ready = new Promise((resolve) => {
      markReady = resolve;
    });
    wanted = true;
    for (const l of listeners) l();
  }
  return ready;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const ModalsHost = lazy(async () => {
  const { ModalsProvider } = await import("@mantine/modals");
  function Host() {
    // Children's effects run first: by now the provider listens for open events.
    useEffect(() => markReady(), []);
    return <ModalsProvider labels={{ confirm: "Confirm", cancel: "Cancel" }}>{null}</ModalsProvider>;
  }
  return { default: Host };
});

/** Mounted once in the app root, beside the router. */
export function DeferredModals() {
  const show = useSyncExternalStore(subscribe, () => wanted);
  return show ? (
    <Suspense fallback={null}>
      <ModalsHost />
    </Suspense>
  ) : null;
}

/** `modals.openConfirmModal`, once the host is there (at once after the first time). */
export async function openConfirm(props: OpenConfirmModal): Promise<void> {
  await mountHost();
  const { modals } = await import("@mantine/modals");
  modals.openConfirmModal(props);
}
