import type { Person } from "@hangar/contract";
import { ActionIcon, Checkbox, Menu, Paper, Stack, Text } from "@mantine/core";
import { IconDots, IconEye, IconEyeOff } from "@tabler/icons-react";
import { type DragEvent, useState } from "react";
import { Link } from "react-router-dom";
import { personName, useUpdatePerson } from "../api";
import { FaceCrop } from "./face-crop";
import { PersonNameInput } from "./person-name-input";

/** The drag payload of a person card (merge by drag). */
export const PERSON_DRAG_TYPE = "application/x-hangar-person";

/**
 * One person in the People grid (issue 32): their cover face (a link to their page), the name edited
 * in place, counts, a selection box and a menu (hide or show). Editors drag a card onto another to
 * merge the two; the drop asks first (onDropPerson).
 */
export function PersonCard({
  workspaceId,
  person,
  editable,
  selected,
  onSelect,
  onDropPerson,
}: {
  workspaceId: string;
  person: Person;
  editable: boolean;
  selected: boolean;
  onSelect: (checked: boolean) => void;
  onDropPerson: (draggedId: string, ontoId: string) => void;
}) {
  const update = useUpdatePerson(workspaceId);
  const [over, setOver] = useState(false);
  const to = `/w/${workspaceId}/people/${person.id}`;
  const drop = {
    onDragOver: (e: DragEvent) => {
      if (!e.dataTransfer.types.includes(PERSON_DRAG_TYPE)) return;
      e.preventDefault();
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (e: DragEvent) => {
      setOver(false);
      const dragged = e.dataTransfer.getData(PERSON_DRAG_TYPE);
      if (dragged && dragged !== person.id) onDropPerson(dragged, person.id);
    },
  };
  return (
    <Paper
      withBorder
      radius="lg"
      p="sm"
      pos="relative"
      data-testid="person-card"
      data-person-id={person.id}
      draggable={editable}
      onDragStart={(e) => {
        e.dataTransfer.setData(PERSON_DRAG_TYPE, person.id);
        e.dataTransfer.effectAllowed = "move";
      }}
      {...(editable ? drop : {})}
      style={{
        opacity: person.hidden ? 0.6 : 1,
        outline: over
          ? "2px dashed var(--mantine-color-brand-5)"
          : selected
            ? "2px solid var(--mantine-color-brand-5)"
            : undefined,
        cursor: editable ? "grab" : undefined,
      }}
    >
      {editable && (
        <Checkbox
          pos="absolute"
          top={10}
          left={10}
          checked={selected}
          onChange={(e) => onSelect(e.currentTarget.checked)}
          aria-label={`Select ${personName(person)}`}
          data-testid="person-select"
        />
      )}
      {editable && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              pos="absolute"
              top={6}
              right={6}
              aria-label={`More for ${personName(person)}`}
            >
              <IconDots size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              leftSection={person.hidden ? <IconEye size={14} /> : <IconEyeOff size={14} />}
              onClick={() => update.mutate({ personId: person.id, patch: { hidden: !person.hidden } })}
            >
              {person.hidden ? "Show in People" : "Hide from People"}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
      <Stack align="center" gap={6}>
        <Link to={to} aria-label={`Open ${personName(person)}`} draggable={false} style={{ borderRadius: "50%" }}>
          <FaceCrop face={person.cover} size={96} />
        </Link>
        <div style={{ textAlign: "center", maxWidth: "100%" }}>
          <PersonNameInput workspaceId={workspaceId} personId={person.id} name={person.name} editable={editable} />
        </div>
        <Text size="xs" c="dimmed">
          {person.asset_count} {person.asset_count === 1 ? "asset" : "assets"}
          {person.hidden ? " · hidden" : ""}
        </Text>
      </Stack>
    </Paper>
  );
}
