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
import { useMediaQuery } from "@mantine/hooks";
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
/** Below Mantine's `sm`: cards instead of the table. */
export const PHONE = "(max-width: 47.99em)";

export function MembersTable({ workspace, currentUserId }: { workspace: Workspace; currentUserId: string }) {
  const navigate = useNavigate();
  const members = useMembers(workspace.id);
  const updateRole = useUpdateMemberRole(workspace.id, currentUserId);
  const remove = useRemoveMember(workspace.id, currentUserId);
  const isAdmin = canAdmin(workspace.user_role);
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });

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

  const rowProps = (member: Member): MemberRowProps => {
    const self = member.user_id === currentUserId;
    return {
      member,
      self,
      name: displayName(member),
      isAdmin,
      rolePending: updateRole.isPending && updateRole.variables?.userId === member.user_id,
      removing: remove.isPending && remove.variables === member.user_id,
      onRole: (role) => changeRole(member, role),
      onRemove: () => confirmRemove(member),
    };
  };

  // A phone: one card per member (the table's five columns do not fit 390 px).
  if (phone)
    return (
      <Stack gap="xs" data-testid="members-table">
        {members.data.map((member) => (
          <MemberCard key={member.user_id} {...rowProps(member)} />
        ))}
      </Stack>
    );
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
            {members.data.map((member) => (
              <MemberRow key={member.user_id} {...rowProps(member)} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

interface MemberRowProps {
  member: Member;
  self: boolean;
  name: string;
  isAdmin: boolean;
  rolePending: boolean;
  removing: boolean;
  onRole(role: Role): void;
  onRemove(): void;
}

function MemberName({ member, self, name }: MemberRowProps) {
  return (
    <Group gap="sm" wrap="nowrap">
      <UserAvatar person={member} size={32} />
      <Text size="sm" fw={500} miw={0} style={{ overflowWrap: "anywhere" }}>
        {name}
      </Text>
      {self && (
        <Badge size="xs" variant="outline" color="gray">
          You
        </Badge>
      )}
    </Group>
  );
}

function RoleCell({ member, name, isAdmin, rolePending, onRole }: MemberRowProps) {
  if (!isAdmin) return <RoleBadge role={member.role} />;
  return (
    <Select
      aria-label={`Role of ${name}`}
      data={ROLE_OPTIONS}
      value={member.role}
      onChange={(value) => value && onRole(value as Role)}
      allowDeselect={false}
      disabled={rolePending}
      size="xs"
      w={150}
    />
  );
}

function RemoveButton({ self, name, isAdmin, removing, onRemove }: MemberRowProps) {
  if (!isAdmin && !self) return null;
  return (
    <Tooltip label={self ? "Leave workspace" : `Remove ${name}`} withArrow>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={self ? "Leave workspace" : `Remove ${name}`}
        onClick={onRemove}
        loading={removing}
      >
        {self ? <IconDoorExit size={18} /> : <IconUserMinus size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}

const joined = (member: Member) => dateFormat.format(new Date(member.joined_at));

function MemberRow(props: MemberRowProps) {
  return (
    <Table.Tr data-testid="member-row">
      <Table.Td>
        <MemberName {...props} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {props.member.email}
        </Text>
      </Table.Td>
      <Table.Td>
        <RoleCell {...props} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {joined(props.member)}
        </Text>
      </Table.Td>
      <Table.Td>
        <RemoveButton {...props} />
      </Table.Td>
    </Table.Tr>
  );
}

/** A member on a phone: name and e-mail (which wraps), the remove button, then role and joining date. */
function MemberCard(props: MemberRowProps) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="member-row">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={2} miw={0}>
          <MemberName {...props} />
          <Text size="sm" c="dimmed" pl={44} style={{ overflowWrap: "anywhere" }}>
            {props.member.email}
          </Text>
        </Stack>
        <RemoveButton {...props} />
      </Group>
      <Group justify="space-between" wrap="wrap" gap="xs" mt="xs" pl={44}>
        <RoleCell {...props} />
        <Text size="sm" c="dimmed">
          Joined {joined(props.member)}
        </Text>
      </Group>
    </Paper>
  );
}
