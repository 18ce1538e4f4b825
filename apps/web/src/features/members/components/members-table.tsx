import { canAdmin, type Member, type Role, type Workspace } from "@hangar/contract";
import {
  ActionIcon,
  Badge,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from "@mantine/core";
import { IconDoorExit, IconUserMinus } from "@tabler/icons-react";
import { useNavigate } from "react-router-dom";
import { errorMessage } from "../../../lib/api-client";
import { openConfirm } from "../../../lib/confirm-modal";
import { notifyError } from "../../../lib/notify";
import { ErrorState } from "../../../ui/error-state";
import { ROLE_OPTIONS, RoleBadge } from "../../../ui/role-badge";
import { displayName, UserAvatar } from "../../../ui/user-avatar";
import { useMembers, useRemoveMember, useUpdateMemberRole } from "../api";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

export function MembersTable({ workspace, currentUserId }: { workspace: Workspace; currentUserId: string }) {
  const navigate = useNavigate();
  const members = useMembers(workspace.id);
  const updateRole = useUpdateMemberRole(workspace.id, currentUserId);
  const remove = useRemoveMember(workspace.id, currentUserId);
  const isAdmin = canAdmin(workspace.user_role);

  const changeRole = (member: Member, role: Role) => {
    if (role === member.role) return;
    updateRole.mutate(
      { userId: member.user_id, role },
      { onError: (error) => notifyError(errorMessage(error, "Failed to update role")) },
    );
  };

  const confirmRemove = (member: Member) => {
    const self = member.user_id === currentUserId;
    const name = displayName(member);
    openConfirm({
      title: self ? "Leave workspace" : "Remove member",
      centered: true,
      children: (
        <Text size="sm">
          {self
            ? `Leave ${workspace.name}? You lose access to its assets and boards until someone invites you again.`
            : `Remove ${name} from ${workspace.name}? They lose access immediately; their uploads and comments stay.`}
        </Text>
      ),
      labels: { confirm: self ? "Leave workspace" : "Remove member", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        remove.mutateAsync(member.user_id).then(
          () => {
            if (self) navigate("/w", { replace: true });
          },
          (error) => notifyError(errorMessage(error, "Failed to remove member")),
        ),
    });
  };

  if (members.isPending) {
    return (
      <Stack gap="xs" role="status" aria-label="Loading members">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={48} />
        ))}
      </Stack>
    );
  }
  if (members.isError) {
    return (
      <ErrorState
        message={errorMessage(members.error, "Failed to fetch members")}
        onRetry={() => members.refetch()}
        retrying={members.isFetching}
      />
    );
  }

  return (
    <Paper withBorder radius="lg" style={{ overflow: "hidden" }}>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover data-testid="members-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Member</Table.Th>
              <Table.Th>E-mail</Table.Th>
              <Table.Th w={180}>Role</Table.Th>
              <Table.Th>Joined</Table.Th>
              <Table.Th w={60}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.data.map((member) => {
              const self = member.user_id === currentUserId;
              const name = displayName(member);
              const pendingRole = updateRole.isPending && updateRole.variables?.userId === member.user_id;
              return (
                <Table.Tr key={member.user_id} data-testid="member-row">
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      <UserAvatar person={member} size={32} />
                      <Text size="sm" fw={500}>
                        {name}
                      </Text>
                      {self && (
                        <Badge size="xs" variant="outline" color="gray">
                          You
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {member.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {isAdmin ? (
                      <Select
                        aria-label={`Role of ${name}`}
                        data={ROLE_OPTIONS}
                        value={member.role}
                        onChange={(value) => value && changeRole(member, value as Role)}
                        allowDeselect={false}
                        disabled={pendingRole}
                        size="xs"
                        w={150}
                      />
                    ) : (
                      <RoleBadge role={member.role} />
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {dateFormat.format(new Date(member.joined_at))}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {(isAdmin || self) && (
                      <Tooltip label={self ? "Leave workspace" : `Remove ${name}`} withArrow>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={self ? "Leave workspace" : `Remove ${name}`}
                          onClick={() => confirmRemove(member)}
                          loading={remove.isPending && remove.variables === member.user_id}
                        >
                          {self ? <IconDoorExit size={18} /> : <IconUserMinus size={18} />}
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
