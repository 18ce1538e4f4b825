import { canEdit, type Face } from "@hangar/contract";
import { ActionIcon, Anchor, Button, Group, Menu, Paper, SimpleGrid, Skeleton, Stack, Text } from "@mantine/core";
import { IconArrowLeft, IconDots, IconEye, IconEyeOff, IconPhotoSearch } from "@tabler/icons-react";
import { Link, useParams } from "react-router-dom";
import { encodeFilters, PARAM } from "../../../entities/asset";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage, isApiError } from "../../../lib/api-client";
import { ErrorState } from "../../../ui/error-state";
import { NotFoundState } from "../../../ui/not-found-state";
import { PEOPLE_MESSAGES, personName, usePeople, usePersonFaces, useUpdateFace, useUpdatePerson } from "../api";
import { FaceCrop } from "../components/face-crop";
import { PersonNameInput } from "../components/person-name-input";

/** All assets filtered to a person's (the grid's own filters then narrow it further). */
export const personAssetsPath = (workspaceId: string, personId: string) =>
  `/w/${workspaceId}/b/all?${PARAM.filters}=${encodeFilters({ people: { includes: [personId] } })}`;

function FaceTile({
  workspaceId,
  personId,
  face,
  editable,
  isCover,
}: {
  workspaceId: string;
  personId: string;
  face: Face;
  editable: boolean;
  isCover: boolean;
}) {
  const update = useUpdatePerson(workspaceId);
  const move = useUpdateFace(workspaceId);
  return (
    <Paper withBorder radius="md" p={6} pos="relative" data-testid="person-face">
      <Anchor
        component={Link}
        to={`/w/${workspaceId}/a/${face.asset_id}`}
        aria-label="Open the picture"
        display="block"
      >
        <FaceCrop face={face} size="100%" radius="var(--mantine-radius-sm)" />
      </Anchor>
      {isCover && (
        <Text size="xs" c="dimmed" ta="center" mt={2}>
          Cover
        </Text>
      )}
      {editable && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon
              variant="filled"
              color="dark"
              size="sm"
              pos="absolute"
              top={10}
              right={10}
              aria-label="More for this face"
              style={{ opacity: 0.8 }}
            >
              <IconDots size={14} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => update.mutate({ personId, patch: { cover_face_id: face.id } })}>
              Use as cover
            </Menu.Item>
            <Menu.Item
              color="red"
              onClick={() => move.mutate({ faceId: face.id, patch: { not_person_id: personId } })}
              data-testid="not-this-person"
            >
              Not this person
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
    </Paper>
  );
}

/**
 * /w/:id/people/:personId (issue 32): a person — their name (edited in place), their faces (each
 * opens its picture; "Not this person" takes a face away for good, "Use as cover"), and their assets
 * in the grid, where every other filter narrows them further.
 */
export function PersonPage() {
  const workspace = useCurrentWorkspace();
  const editable = canEdit(workspace.user_role);
  const { personId = "" } = useParams();
  const people = usePeople(workspace.id, true);
  const faces = usePersonFaces(workspace.id, personId);
  const update = useUpdatePerson(workspace.id);
  const person = people.data?.data.find((p) => p.id === personId);
  const back = (
    <Anchor component={Link} to={`/w/${workspace.id}/people`} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden /> People
      </Group>
    </Anchor>
  );

  if (faces.isError && isApiError(faces.error) && faces.error.status === 404)
    return <NotFoundState backTo={`/w/${workspace.id}/people`} backLabel="Back to People" />;
  if (people.isError || faces.isError)
    return (
      <ErrorState
        title={PEOPLE_MESSAGES.loadFailed}
        message={errorMessage(people.error ?? faces.error, PEOPLE_MESSAGES.loadFailed)}
        onRetry={() => {
          void people.refetch();
          void faces.refetch();
        }}
        retrying={people.isFetching || faces.isFetching}
      />
    );
  if (people.isPending || faces.isPending)
    return (
      <Stack gap="md" role="status" aria-label="Loading the person">
        {back}
        <Skeleton height={96} circle />
        <Skeleton height={24} width={200} />
      </Stack>
    );
  if (!person) return <NotFoundState backTo={`/w/${workspace.id}/people`} backLabel="Back to People" />;

  return (
    <Stack gap="lg" data-testid="person-page">
      {back}
      <Group gap="lg" align="center" wrap="wrap">
        <FaceCrop face={person.cover} size={96} />
        <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
          <PersonNameInput
            workspaceId={workspace.id}
            personId={person.id}
            name={person.name}
            editable={editable}
            size="lg"
          />
          <Text size="sm" c="dimmed" data-testid="person-counts">
            {person.face_count} {person.face_count === 1 ? "face" : "faces"} in {person.asset_count}{" "}
            {person.asset_count === 1 ? "asset" : "assets"}
            {person.hidden ? " · hidden from People" : ""}
          </Text>
          <Group gap="xs">
            <Button
              component={Link}
              to={personAssetsPath(workspace.id, person.id)}
              size="xs"
              leftSection={<IconPhotoSearch size={14} />}
              data-testid="person-assets"
            >
              Show {person.name ? `${person.name}'s` : "their"} assets
            </Button>
            {editable && (
              <Button
                size="xs"
                variant="default"
                leftSection={person.hidden ? <IconEye size={14} /> : <IconEyeOff size={14} />}
                onClick={() => update.mutate({ personId: person.id, patch: { hidden: !person.hidden } })}
              >
                {person.hidden ? "Show in People" : "Hide"}
              </Button>
            )}
          </Group>
        </Stack>
      </Group>
      <Stack gap="sm">
        <Text fw={600}>
          Faces of {personName(person)}
          {faces.data.has_more ? ` (best ${faces.data.data.length} of ${faces.data.total_count})` : ""}
        </Text>
        <SimpleGrid cols={{ base: 3, xs: 4, sm: 6, md: 8 }} spacing="xs">
          {faces.data.data.map((f) => (
            <FaceTile
              key={f.id}
              workspaceId={workspace.id}
              personId={person.id}
              face={f}
              editable={editable}
              isCover={person.cover?.id === f.id}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}
