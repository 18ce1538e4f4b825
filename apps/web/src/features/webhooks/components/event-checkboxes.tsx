import { WEBHOOK_EVENT_GROUPS, WEBHOOK_EVENTS, type WebhookEventType } from "@hangar/contract";
import { Checkbox, Code, Fieldset, Group, Input, SimpleGrid, Stack, Text } from "@mantine/core";
import { EVENT_DESCRIPTIONS } from "../events";

/**
 * The events an endpoint hears, in their groups: a group's box selects or clears the whole group
 * (indeterminate when some are chosen), each event says when it is sent.
 */
export function EventCheckboxes({
  value,
  onChange,
  error,
}: {
  value: WebhookEventType[];
  onChange(events: WebhookEventType[]): void;
  error?: string | undefined;
}) {
  const chosen = new Set(value);
  const set = (events: readonly WebhookEventType[], on: boolean) => {
    const next = new Set(chosen);
    for (const e of events) {
      if (on) next.add(e);
      else next.delete(e);
    }
    onChange(WEBHOOK_EVENTS.filter((e) => next.has(e)));
  };
  const all = chosen.size === WEBHOOK_EVENTS.length;
  return (
    <Input.Wrapper
      label="Events"
      description="What the endpoint is sent. Choose only what it uses."
      error={error}
      withAsterisk
      data-testid="webhook-events"
    >
      <Stack gap="sm" mt="xs">
        <Checkbox
          label="Every event"
          checked={all}
          indeterminate={!all && chosen.size > 0}
          onChange={(e) => set(WEBHOOK_EVENTS, e.currentTarget.checked)}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
          {WEBHOOK_EVENT_GROUPS.map((group) => {
            const n = group.events.filter((e) => chosen.has(e)).length;
            return (
              <Fieldset
                key={group.label}
                variant="filled"
                p="sm"
                legend={
                  <Checkbox
                    label={group.label}
                    fw={600}
                    checked={n === group.events.length}
                    indeterminate={n > 0 && n < group.events.length}
                    onChange={(e) => set(group.events, e.currentTarget.checked)}
                  />
                }
              >
                <Stack gap={8}>
                  {group.events.map((event) => (
                    <Checkbox
                      key={event}
                      value={event}
                      checked={chosen.has(event)}
                      onChange={(e) => set([event], e.currentTarget.checked)}
                      label={
                        <Group gap={6} wrap="wrap">
                          <Code>{event}</Code>
                        </Group>
                      }
                      description={
                        <Text span size="xs">
                          {EVENT_DESCRIPTIONS[event]}
                        </Text>
                      }
                    />
                  ))}
                </Stack>
              </Fieldset>
            );
          })}
        </SimpleGrid>
      </Stack>
    </Input.Wrapper>
  );
}
