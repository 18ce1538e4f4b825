import { canAdmin } from "@hangar/contract";
import { Alert, Stack } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { PageHeader } from "../../../ui/page-header";
import { useCurrentUser } from "../../auth";
import { MembersTable } from "../components/members-table";
import { PendingInvites } from "../components/pending-invites";
import { InviteMemberDialog } from "../dialogs/invite-member-dialog";

export function MembersPage() {
  const workspace = useCurrentWorkspace();
  const user = useCurrentUser();
  const isAdmin = canAdmin(workspace.user_role);

  return (
    <Stack gap="lg" data-testid="members-page">
      <PageHeader
        title="Members"
        description={`People with access to ${workspace.name}`}
        actions={isAdmin && <InviteMemberDialog workspaceId={workspace.id} workspaceName={workspace.name} />}
      />
      {!isAdmin && (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
          Only admins can invite people, change roles or remove members.
        </Alert>
      )}
      <MembersTable workspace={workspace} currentUserId={user.id} />
      {isAdmin && <PendingInvites workspaceId={workspace.id} />}
    </Stack>
  );
}
