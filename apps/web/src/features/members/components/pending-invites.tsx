import type { Invite } from "@hangar/contract";
import { ActionIcon, Group, Paper, Skeleton, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconMailOff } from "@tabler/icons-react";
import { errorMessage } from "../../../lib/api-client";
import { openConfirm } from "../../../lib/confirm-modal";
import { notifyError } from "../../../lib/notify";
import { ErrorState } from "../../../ui/error-state";
import { RoleBadge } from "../../../ui/role-badge";
import { useInvites, useRevokeInvite } from "../api";
import { PHONE } from "./members-table";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** Invitations not yet accepted; admins only (the list itself is admin-only on the server). */
export function PendingInvites({ workspaceId }: { workspaceId: string }) {
  const invites = useInvites(workspaceId, true);
  const revoke = useRevokeInvite(workspaceId);
  // A phone: one card per invitation (the table's five columns do not fit 390 px).
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });

  const confirmRevoke = (invite: Invite) =>
    openConfirm({
      title: "Revoke invitation",
      centered: true,
      children: (
        <Text size="sm">Revoke the invitation for {invite.email}? The link in their e-mail stops working.</Text>
      ),
      labels: { confirm: "Revoke", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        revoke.mutate(invite.id, {
          onError: (error) => notifyError(errorMessage(error, "Failed to revoke invitation")),
        }),
    });

  const revokeButton = (invite: Invite) => (
    <Tooltip label="Revoke invitation" withArrow>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`Revoke invitation for ${invite.email}`}
        onClick={() => confirmRevoke(invite)}
        loading={revoke.isPending && revoke.variables === invite.id}
      >
        <IconMailOff size={18} />
      </ActionIcon>
    </Tooltip>
  );

  return (
    <Stack gap="sm" data-testid="pending-invites">
      <Title order={2} size="h4">
        Pending invitations
      </Title>
      {invites.isPending && <Skeleton height={48} />}
      {invites.isError && (
        <ErrorState
          message={errorMessage(invites.error, "Failed to fetch invitations")}
          onRetry={() => invites.refetch()}
          retrying={invites.isFetching}
        />
      )}
      {invites.data?.length === 0 && (
        <Text size="sm" c="dimmed">
          No pending invitations.
        </Text>
      )}
      {!!invites.data?.length && phone && (
        <Stack gap="xs" data-testid="invites-table">
          {invites.data.map((invite) => (
            <Paper key={invite.id} withBorder radius="md" p="sm" data-testid="invite-row">
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                <Text size="sm" miw={0} style={{ overflowWrap: "anywhere" }}>
                  {invite.email}
                </Text>
                {revokeButton(invite)}
              </Group>
              <Group gap="xs" mt={6} wrap="wrap">
                <RoleBadge role={invite.role} />
                <Text size="sm" c="dimmed">
                  by {invite.invited_by} · expires {dateFormat.format(new Date(invite.expires_at))}
                </Text>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      {!!invites.data?.length && !phone && (
        <Paper withBorder radius="lg" style={{ overflow: "hidden" }}>
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="sm" horizontalSpacing="md" data-testid="invites-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>E-mail</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Invited by</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th w={60}>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invites.data.map((invite) => (
                  <Table.Tr key={invite.id} data-testid="invite-row">
                    <Table.Td>
                      <Text size="sm">{invite.email}</Text>
                    </Table.Td>
                    <Table.Td>
                      <RoleBadge role={invite.role} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {invite.invited_by}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {dateFormat.format(new Date(invite.expires_at))}
                      </Text>
                    </Table.Td>
                    <Table.Td>{revokeButton(invite)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
    </Stack>
  );
}
