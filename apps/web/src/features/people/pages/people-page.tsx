import { canEdit, type Person } from "@hangar/contract";
import { Button, Group, SimpleGrid, Skeleton, Stack, Switch, Text, Title } from "@mantine/core";
import { IconFaceId, IconUsersGroup } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { EmptyPanel } from "../../../ui/empty-panel";
import { ErrorState } from "../../../ui/error-state";
import { PageHeader } from "../../../ui/page-header";
import { PEOPLE_MESSAGES, useMergePeople, usePeople } from "../api";
import { MergeDialog } from "../components/merge-dialog";
import { PersonCard } from "../components/person-card";

const GRID_COLS = { base: 2, xs: 3, sm: 4, md: 5, lg: 6 };

function PeopleGrid({
  title,
  people,
  ...card
}: {
  title: string;
  people: Person[];
  workspaceId: string;
  editable: boolean;
  selected: Set<string>;
  onSelect: (id: string, checked: boolean) => void;
  onDropPerson: (dragged: string, onto: string) => void;
}) {
  if (!people.length) return null;
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Title order={2} fz="md">
        {title}{" "}
        <Text span c="dimmed" fz="sm">
          ({people.length})
        </Text>
      </Title>
      <SimpleGrid cols={GRID_COLS} spacing="sm">
        {people.map((p) => (
          <PersonCard
            key={p.id}
            person={p}
            workspaceId={card.workspaceId}
            editable={card.editable}
            selected={card.selected.has(p.id)}
            onSelect={(checked) => card.onSelect(p.id, checked)}
            onDropPerson={card.onDropPerson}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/**
 * /w/:id/people (issue 32): the workspace's people, named ones first, then the unnamed ones the
 * grouping found. A name is edited in place; editors merge people by dragging one card onto another
 * or by selecting several and choosing who they are; a person can be hidden (shown again with "Show
 * hidden"). A COMMENTER looks only.
 */
export function PeoplePage() {
  const workspace = useCurrentWorkspace();
  const editable = canEdit(workspace.user_role);
  const [showHidden, setShowHidden] = useState(false);
  const people = usePeople(workspace.id, showHidden);
  const merge = useMergePeople(workspace.id);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [pending, setPending] = useState<{ into: string; from: string[] } | null>(null);
  const [target, setTarget] = useState<string | null>(null);

  const all = people.data?.data ?? [];
  const byId = useMemo(() => new Map(all.map((p) => [p.id, p])), [all]);
  const chosen = [...selected].filter((id) => byId.has(id));
  const header = (
    <PageHeader
      title="People"
      description="Faces found in your pictures, grouped into people. Name them to find their pictures."
    />
  );

  if (people.isPending)
    return (
      <>
        {header}
        <SimpleGrid cols={GRID_COLS} spacing="sm" role="status" aria-label="Loading people">
          {["a", "b", "c", "d", "e", "f"].map((k) => (
            <Skeleton key={k} height={170} radius="lg" />
          ))}
        </SimpleGrid>
      </>
    );
  if (people.isError)
    return (
      <>
        {header}
        <ErrorState
          title={PEOPLE_MESSAGES.loadFailed}
          message={errorMessage(people.error, PEOPLE_MESSAGES.loadFailed)}
          onRetry={() => people.refetch()}
          retrying={people.isFetching}
        />
      </>
    );
  if (!people.data.enabled)
    return (
      <>
        {header}
        <EmptyPanel
          testId="people-off"
          icon={<IconFaceId size={28} />}
          title="Face recognition is off"
          description="An admin can turn it on in the workspace's settings. Pictures are then looked at again."
        />
      </>
    );

  const named = all.filter((p) => p.name);
  const unnamed = all.filter((p) => !p.name);
  const select = (id: string, checked: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  const askMerge = (ids: string[], into: string) => {
    setTarget(into);
    setPending({ into, from: ids.filter((id) => id !== into) });
  };
  const grid = { workspaceId: workspace.id, editable, selected, onSelect: select };
  const onDropPerson = (dragged: string, onto: string) => askMerge([dragged, onto], onto);

  return (
    <>
      {header}
      <Stack gap="lg" data-testid="people">
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed" data-testid="people-summary">
            {all.length} {all.length === 1 ? "person" : "people"}
            {editable ? " · drag one person onto another to merge them" : ""}
          </Text>
          <Switch
            label="Show hidden"
            checked={showHidden}
            onChange={(e) => setShowHidden(e.currentTarget.checked)}
            data-testid="people-show-hidden"
          />
        </Group>
        {editable && chosen.length > 0 && (
          <Group
            gap="sm"
            p="sm"
            data-testid="people-selection"
            style={{ borderRadius: "var(--mantine-radius-md)", background: "var(--mantine-color-brand-0)" }}
          >
            <Text size="sm" fw={600}>
              {chosen.length} selected
            </Text>
            <Button
              size="xs"
              disabled={chosen.length < 2}
              onClick={() => askMerge(chosen, chosen.find((id) => byId.get(id)?.name) ?? chosen[0]!)}
              data-testid="people-merge"
            >
              Merge…
            </Button>
            <Button size="xs" variant="subtle" color="gray" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
          </Group>
        )}
        {all.length === 0 ? (
          <EmptyPanel
            testId="people-empty"
            icon={<IconUsersGroup size={28} />}
            title="No people yet"
            description="Faces are looked for in pictures after they are processed; people appear once a face is seen in a few pictures."
          />
        ) : (
          <>
            <PeopleGrid title="Named" people={named} {...grid} onDropPerson={onDropPerson} />
            <PeopleGrid title="Not named yet" people={unnamed} {...grid} onDropPerson={onDropPerson} />
          </>
        )}
      </Stack>
      <MergeDialog
        opened={pending !== null}
        people={pending ? [pending.into, ...pending.from].flatMap((id) => byId.get(id) ?? []) : []}
        target={target}
        onTarget={setTarget}
        busy={merge.isPending}
        onClose={() => setPending(null)}
        onConfirm={() => {
          if (!pending || !target) return;
          const from = [pending.into, ...pending.from].filter((id) => id !== target);
          merge.mutate(
            { into: target, from },
            {
              onSuccess: () => {
                setPending(null);
                setSelected(new Set());
              },
            },
          );
        }}
      />
    </>
  );
}
