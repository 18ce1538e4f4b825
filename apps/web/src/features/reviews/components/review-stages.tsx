import type { Review } from "@hangar/contract";
import { ActionIcon, Badge, CopyButton, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from "@mantine/core";
import { IconCheck, IconLink, IconMail, IconUser } from "@tabler/icons-react";

const STAGE_STATE = {
  active: { label: "Active", color: "blue" },
  done: { label: "Done", color: "green" },
  waiting: { label: "Not started", color: "gray" },
} as const;

/** The stages in order: rule, state, and each reviewer with what awaits them (and an outsider's link). */
export function ReviewStages({ review }: { review: Review }) {
  const canceled = review.state === "canceled";
  return (
    <SimpleGrid cols={{ base: 1, sm: Math.min(review.stages.length, 3) }} spacing="sm" data-testid="review-stages">
      {review.stages.map((stage) => {
        const state = STAGE_STATE[stage.state];
        return (
          <Paper key={stage.index} withBorder radius="md" p="sm" data-testid={`review-stage-${stage.index + 1}`}>
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text fw={600} size="sm">
                  Stage {stage.index + 1}
                </Text>
                <Badge size="sm" variant="light" color={canceled ? "gray" : state.color} tt="none">
                  {state.label}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed">
                {stage.rule === "all" ? "Every reviewer must approve" : "Any one reviewer's approval is enough"}
              </Text>
              <Stack gap={6}>
                {stage.reviewers.map((r) => (
                  <Group key={r.id} justify="space-between" wrap="nowrap" gap="xs">
                    <Group gap={6} wrap="nowrap" miw={0}>
                      {r.kind === "member" ? (
                        <IconUser size={14} aria-label="Member" />
                      ) : (
                        <IconMail size={14} aria-label="Outside reviewer" />
                      )}
                      <Stack gap={0} miw={0}>
                        <Text size="sm" truncate="end">
                          {r.name}
                        </Text>
                        {r.kind === "external" && r.email && r.email !== r.name && (
                          <Text size="xs" c="dimmed" truncate="end">
                            {r.email}
                          </Text>
                        )}
                      </Stack>
                    </Group>
                    <Group gap={4} wrap="nowrap">
                      <Text size="xs" c={r.waiting > 0 ? "blue" : "dimmed"} style={{ whiteSpace: "nowrap" }}>
                        {r.waiting > 0 ? `${r.waiting} to decide` : r.asked_at ? "Nothing pending" : "Not asked yet"}
                      </Text>
                      {r.link && (
                        <CopyButton value={`${window.location.origin}${r.link.path}`}>
                          {({ copied, copy }) => (
                            <Tooltip label={copied ? "Copied" : `Copy ${r.name}'s review link`}>
                              <ActionIcon
                                variant="subtle"
                                color={copied ? "green" : "gray"}
                                size="sm"
                                onClick={copy}
                                aria-label={`Copy ${r.name}'s review link`}
                              >
                                {copied ? <IconCheck size={14} /> : <IconLink size={14} />}
                              </ActionIcon>
                            </Tooltip>
                          )}
                        </CopyButton>
                      )}
                    </Group>
                  </Group>
                ))}
              </Stack>
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
