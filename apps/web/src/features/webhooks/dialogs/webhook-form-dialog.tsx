import type { Webhook, WebhookEventType, WebhookWithSecret } from "@hangar/contract";
import { Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";
import { errorMessage, isApiError } from "../../../lib/api-client";
import { type FieldErrors, serverFieldErrors, useFormState } from "../../../lib/forms";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { useCreateWebhook, useUpdateWebhook } from "../api";
import { EventCheckboxes } from "../components/event-checkboxes";

const FIELDS = ["url", "events", "description"] as const;
type Field = (typeof FIELDS)[number];

/** The server's 422 on the form's fields ("body.url" → url; an event's own error → events). */
export function webhookFormErrors(error: unknown): FieldErrors<Field> {
  const out = serverFieldErrors(error, FIELDS);
  if (!out.events && isApiError(error)) out.events = error.errors.find((e) => e.field.includes("events"))?.message;
  return out;
}

/** What the browser can tell before asking: an http(s) URL. */
export function urlError(value: string): string | undefined {
  const v = value.trim();
  if (!v) return "URL is required";
  let protocol = "";
  try {
    protocol = new URL(v).protocol;
  } catch {}
  return protocol === "http:" || protocol === "https:" ? undefined : "Enter an http:// or https:// URL.";
}

/**
 * Adding an endpoint (`hook` absent: on success `onCreated` gets it with its secret) or changing one's
 * URL, description and events.
 */
export function WebhookFormDialog({
  workspaceId,
  opened,
  onClose,
  hook,
  onCreated,
}: {
  workspaceId: string;
  opened: boolean;
  onClose(): void;
  hook?: Webhook;
  onCreated?(hook: WebhookWithSecret): void;
}) {
  const create = useCreateWebhook(workspaceId);
  const update = useUpdateWebhook(workspaceId);
  const form = useFormState({ url: "", description: "" });
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [eventsError, setEventsError] = useState<string | undefined>();
  const { reset } = form;

  // Each opening starts from the endpoint as it is (or empty, to add one).
  useEffect(() => {
    if (!opened) return;
    reset({ url: hook?.url ?? "", description: hook?.description ?? "" });
    setEvents(hook?.events ?? []);
    setEventsError(undefined);
  }, [opened, hook, reset]);

  const pending = create.isPending || update.isPending;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const url = form.values.url.trim();
    const errors = { url: urlError(url) };
    const noEvents = events.length === 0 ? "Choose at least one event" : undefined;
    form.setErrors(errors);
    setEventsError(noEvents);
    if (errors.url || noEvents) return;
    const body = { url, events, description: form.values.description.trim() };
    const onError = (err: unknown) => {
      const fields = webhookFormErrors(err);
      form.setErrors({ url: fields.url, description: fields.description });
      setEventsError(fields.events);
      if (!fields.url && !fields.events && !fields.description)
        notifyError(errorMessage(err, hook ? "Failed to save the endpoint" : "Failed to add the endpoint"));
    };
    if (hook)
      update.mutate(
        { id: hook.id, body },
        {
          onSuccess: () => {
            onClose();
            notifySuccess("Webhook endpoint saved");
          },
          onError,
        },
      );
    else
      create.mutate(body, {
        onSuccess: (created) => {
          onClose();
          onCreated?.(created);
        },
        onError,
      });
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={hook ? "Edit webhook endpoint" : "Add webhook endpoint"}
      centered
      size="xl"
    >
      <form onSubmit={submit} noValidate data-testid="webhook-form">
        <Stack gap="md">
          <TextInput
            label="Endpoint URL"
            description="Hangar POSTs each event here as signed JSON. Public addresses only."
            placeholder="https://example.com/hangar/webhook"
            autoComplete="off"
            inputMode="url"
            required
            data-autofocus
            maxLength={2000}
            {...form.bind("url")}
          />
          <TextInput
            label="Description"
            description="Optional: what receives it, to recognise it later."
            placeholder="Sync to our CMS"
            autoComplete="off"
            maxLength={200}
            {...form.bind("description")}
          />
          <EventCheckboxes
            value={events}
            error={eventsError}
            onChange={(next) => {
              setEvents(next);
              setEventsError(undefined);
            }}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              {hook ? "Save" : "Add endpoint"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
