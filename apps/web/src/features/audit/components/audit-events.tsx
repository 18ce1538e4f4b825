import type { AuditEvent, AuditPage } from "@hangar/contract";
import { Badge, Button, Group, Paper, Skeleton, Stack, Text, Tooltip } from "@mantine/core";
import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { relativeTime } from "../../../entities/format";
import { errorMessage } from "../../../lib/api-client";
import { ErrorState } from "../../../ui/error-state";
import { ACTOR_KIND_LABELS, actionLabel, changeLines } from "../describe";

const KIND_COLOURS: Record<string, string> = {
  member: "blue",
  api_key: "grape",
  visitor: "teal",
  reviewer: "cyan",
  anonymous: "orange",
  system: "gray",
};
const moment = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** One row of the log: when, who (and from where, for ADMINs), what, and what changed. */
export function AuditEventRow({ event, compact }: { event: AuditEvent; compact?: boolean }) {
  const lines = changeLines(event);
  return (
    <Paper withBorder radius="sm" p="xs" data-testid="audit-event" data-action={event.action}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0, flex: "1 1 240px" }}>
          <Text size="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
            {actionLabel(event.action)}
            {event.object.name ? (
              <Text span fw={400}>
                {" "}
                “{event.object.name}”
              </Text>
            ) : null}
          </Text>
          <Group gap={6} wrap="wrap">
            {event.actor.name ? (
              <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                {event.actor.name}
              </Text>
            ) : null}
            <Badge size="xs" variant="light" color={KIND_COLOURS[event.actor.kind] ?? "gray"}>
              {ACTOR_KIND_LABELS[event.actor.kind]}
            </Badge>
            {event.ip ? (
              <Tooltip label={event.user_agent ?? "No user agent"} multiline maw={320} withinPortal>
                <Text size="xs" c="dimmed" data-testid="audit-ip">
                  {event.ip}
                </Text>
              </Tooltip>
            ) : null}
          </Group>
        </Stack>
        <Tooltip label={moment.format(new Date(event.at))} withinPortal>
          <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
            {compact ? relativeTime(event.at) : moment.format(new Date(event.at))}
          </Text>
        </Tooltip>
      </Group>
      {lines.length > 0 && (
        <Stack gap={0} mt={4}>
          {lines.map((l) => (
            <Text key={l} size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }} lineClamp={3}>
              {l}
            </Text>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** A list of events, loading states, errors, the empty state and "Load more". */
export function AuditEventList(props: {
  query: UseInfiniteQueryResult<InfiniteData<AuditPage>>;
  empty: ReactNode;
  compact?: boolean;
  label: string;
}) {
  const { query } = props;
  if (query.isPending)
    return (
      <Stack gap="xs" role="status" aria-label={`Loading ${props.label}`}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={56} />
        ))}
      </Stack>
    );
  if (query.isError)
    return (
      <ErrorState
        message={errorMessage(query.error, `Failed to fetch the ${props.label}`)}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />
    );
  const events = query.data.pages.flatMap((p) => p.data);
  if (events.length === 0) return <>{props.empty}</>;
  return (
    <Stack gap={6} aria-label={props.label} component="section">
      {events.map((e) => (
        <AuditEventRow key={e.id} event={e} compact={props.compact} />
      ))}
      {query.hasNextPage && (
        <Button
          variant="default"
          size="xs"
          onClick={() => query.fetchNextPage()}
          loading={query.isFetchingNextPage}
          data-testid="audit-more"
          style={{ alignSelf: "center" }}
        >
          Load more
        </Button>
      )}
    </Stack>
  );
}
