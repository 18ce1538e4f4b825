import { TextInput, UnstyledButton } from "@mantine/core";
import { IconPencil } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { PEOPLE_MESSAGES, useUpdatePerson } from "../api";

/**
 * A person's name, edited in place (issue 32): click (or Enter on) the name, type, Enter or leaving
 * the field saves, Escape cancels. An unnamed person shows "Add a name". Read-only for COMMENTERs.
 */
export function PersonNameInput({
  workspaceId,
  personId,
  name,
  editable,
  size = "sm",
}: {
  workspaceId: string;
  personId: string;
  name: string | null;
  editable: boolean;
  size?: "sm" | "lg";
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(name ?? "");
  const input = useRef<HTMLInputElement>(null);
  const update = useUpdatePerson(workspaceId);
  useEffect(() => {
    if (!editing) setText(name ?? "");
  }, [name, editing]);
  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);
  const fz = size === "lg" ? 22 : 14;
  const save = () => {
    setEditing(false);
    const typed = text.trim();
    if (!typed || typed === name) return setText(name ?? "");
    update.mutate({ personId, patch: { name: typed } });
  };
  if (!editable)
    return (
      <span style={{ fontSize: fz, fontWeight: 600, overflowWrap: "anywhere" }} data-testid="person-name">
        {name ?? PEOPLE_MESSAGES.unnamed}
      </span>
    );
  if (editing)
    return (
      <TextInput
        ref={input}
        size={size === "lg" ? "md" : "xs"}
        value={text}
        maxLength={100}
        aria-label="Name"
        placeholder="Name"
        onChange={(e) => setText(e.currentTarget.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === "Enter") save();
          if (e.key === "Escape") {
            setText(name ?? "");
            setEditing(false);
          }
        }}
        data-testid="person-name-input"
      />
    );
  return (
    <UnstyledButton
      onClick={() => setEditing(true)}
      aria-label={name ? `Rename ${name}` : "Add a name"}
      data-testid="person-name"
      style={{
        fontSize: fz,
        fontWeight: name ? 600 : 500,
        color: name ? undefined : "var(--mantine-color-brand-7)",
        display: "inline-flex",
        alignItems: "center",
        gap: 4,
        maxWidth: "100%",
        overflowWrap: "anywhere",
      }}
    >
      {update.isPending ? (update.variables?.patch.name ?? name) : (name ?? "Add a name")}
      <IconPencil size={size === "lg" ? 16 : 12} stroke={1.6} aria-hidden style={{ opacity: 0.6, flex: "none" }} />
    </UnstyledButton>
  );
}
