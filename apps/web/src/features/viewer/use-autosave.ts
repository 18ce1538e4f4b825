import { useEffect, useRef, useState } from "react";
import { AUTOSAVE_MS } from "./viewer-constants";

/**
 * A text field that saves after a pause in typing (spec 02 §5): `toSave` maps the typed text to
 * the value to send, or undefined when nothing should be sent (empty name, unchanged). On a failed
 * save the field shows the server's value again.
 */
export function useAutosave<T>(
  serverValue: string,
  toSave: (typed: string) => T | undefined,
  save: (value: T) => Promise<unknown>,
) {
  const [text, setText] = useState(serverValue);
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<(() => void) | null>(null);

  // A new server value (another asset, a refetch) replaces the text unless the user is typing.
  useEffect(() => {
    if (!dirty.current) setText(serverValue);
  }, [serverValue]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const onChange = (next: string) => {
    setText(next);
    dirty.current = true;
    if (timer.current) clearTimeout(timer.current);
    const flush = () => {
      timer.current = null;
      pending.current = null;
      const value = toSave(next);
      if (value === undefined) {
        dirty.current = false;
        return;
      }
      save(value).then(
        () => {
          dirty.current = false;
        },
        () => {
          dirty.current = false;
          setText(serverValue);
        },
      );
    };
    pending.current = flush;
    timer.current = setTimeout(flush, AUTOSAVE_MS);
  };
  return { text, onChange };
}
