import type { Face } from "@hangar/contract";
import { Autocomplete, Button, Group, Popover, Stack, Text } from "@mantine/core";
import { type FormEvent, useMemo, useState } from "react";
import { useMergePeople, usePeople, useUpdateFace, useUpdatePerson } from "../api";

/**
 * "Who is this?" on a face (issue 32): type a name — an existing person's (suggested) or a new one,
 * made on the spot. A face of an unnamed person names that person (or, when the name is someone's
 * already, merges the two); any other face moves alone. "Not this person" takes the face away from
 * the person it was grouped with.
 */
export function WhoIsThis({
  workspaceId,
  face,
  label = "Who is this?",
}: {
  workspaceId: string;
  face: Face;
  label?: string;
}) {
  const [opened, setOpened] = useState(false);
  const [name, setName] = useState("");
  const people = usePeople(opened ? workspaceId : null);
  const update = useUpdateFace(workspaceId);
  const rename = useUpdatePerson(workspaceId);
  const merge = useMergePeople(workspaceId);
  const names = useMemo(
    () => [...new Set((people.data?.data ?? []).flatMap((p) => (p.name ? [p.name] : [])))],
    [people.data],
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const typed = name.trim();
    if (!typed) return;
    const done = { onSuccess: () => setOpened(false) };
    const person = face.person;
    if (person && !person.name) {
      const existing = people.data?.data.find((p) => p.name?.toLowerCase() === typed.toLowerCase());
      if (existing) merge.mutate({ into: existing.id, from: [person.id] }, done);
      else rename.mutate({ personId: person.id, patch: { name: typed } }, done);
      return;
    }
    update.mutate({ faceId: face.id, patch: { name: typed } }, done);
  };
  const saving = update.isPending || rename.isPending || merge.isPending;
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" withArrow trapFocus shadow="md">
      <Popover.Target>
        <Button
          size="compact-xs"
          variant={face.person?.name ? "subtle" : "light"}
          onClick={() => {
            setName(face.person?.name ?? "");
            setOpened((o) => !o);
          }}
          data-testid="who-is-this"
        >
          {label}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <form onSubmit={submit}>
          <Stack gap="xs" w={240}>
            <Autocomplete
              label="Name"
              placeholder="Type a name"
              data={names}
              value={name}
              onChange={setName}
              data-autofocus
              maxLength={100}
              comboboxProps={{ withinPortal: false }}
              data-testid="who-is-this-name"
            />
            <Group justify="space-between" gap="xs">
              {face.person ? (
                <Button
                  variant="subtle"
                  color="red"
                  size="compact-sm"
                  onClick={() =>
                    update.mutate(
                      { faceId: face.id, patch: { not_person_id: face.person!.id } },
                      { onSuccess: () => setOpened(false) },
                    )
                  }
                  loading={update.isPending && update.variables?.patch.not_person_id !== undefined}
                >
                  Not this person
                </Button>
              ) : (
                <Text size="xs" c="dimmed">
                  A new name makes a new person.
                </Text>
              )}
              <Button type="submit" size="compact-sm" disabled={!name.trim()} loading={saving}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
