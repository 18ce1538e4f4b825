import { type ComponentType, lazy, type ReactNode, Suspense, useState } from "react";
import { useReturnFocus } from "./focus-return";

/**
 * React.lazy for a named export: a dialog, drawer or overlay that the first load of its page does
 * not need ships in its own chunk, fetched the first time it opens.
 */
export function lazyNamed<K extends string, P>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

/**
 * Mounts its children (a lazily loaded dialog) from the first time `open` is true and keeps them
 * mounted afterwards, so the dialog's closing transition and state behave as if it had always
 * been there. Nothing shows while the chunk arrives: the dialog appears when it is ready. Closing
 * returns focus to what opened it (the dialog's first opening is a mount, which Mantine does not see).
 */
export function WhenOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  useReturnFocus(open);
  if (open && !opened) setOpened(true);
  return opened || open ? <Suspense fallback={null}>{children}</Suspense> : null;
}
