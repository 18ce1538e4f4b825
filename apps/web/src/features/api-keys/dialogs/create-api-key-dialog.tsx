import { API_SCOPES, type ApiKeyCreated, type ApiScope } from "@hangar/contract";
import { Button, Checkbox, Group, Modal, Stack, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconKey } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { errorMessage, isApiError } from "../../../lib/api-client";
import { type FieldErrors, serverFieldErrors, useFormState } from "../../../lib/forms";
import { notifyError } from "../../../lib/notify";
import { useCreateApiKey } from "../api";
import { expiryFromDate, SCOPE_DESCRIPTIONS, todayInput } from "../scopes";

const FIELDS = ["name", "scopes", "expires_at"] as const;
type Field = (typeof FIELDS)[number];

/**
 * The server's 422 on the form's fields: "body.name" → name; a scope's own error ("scopes.0" or
 * "body.scopes[1]") → scopes.
 */
export function createKeyErrors(error: unknown): FieldErrors<Field> {
  const out = serverFieldErrors(error, FIELDS);
  if (!out.scopes && isApiError(error)) out.scopes = error.errors.find((e) => e.field.includes("scopes"))?.message;
  return out;
}

/**
 * "Create API key" and its dialog: a name, the scopes (each with what it allows) and an optional
 * expiry day. On success the dialog closes and `onCreated` gets the key with its secret.
 */
export function CreateApiKeyDialog({
  workspaceId,
  onCreated,
}: {
  workspaceId: string;
  onCreated(key: ApiKeyCreated): void;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const create = useCreateApiKey(workspaceId);
  const form = useFormState({ name: "", expires_at: "" });
  const [scopes, setScopes] = useState<ApiScope[]>(["assets:read"]);
  const [scopesError, setScopesError] = useState<string | undefined>();

  const dismiss = () => {
    close();
    form.reset();
    setScopes(["assets:read"]);
    setScopesError(undefined);
    create.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = form.values.name.trim();
    const errors = { name: name ? undefined : "Name is required" };
    const noScope = scopes.length === 0 ? "Choose at least one scope" : undefined;
    form.setErrors(errors);
    setScopesError(noScope);
    if (errors.name || noScope) return;
    create.mutate(
      { name, scopes, expires_at: expiryFromDate(form.values.expires_at) },
      {
        onSuccess: (key) => {
          dismiss();
          onCreated(key);
        },
        onError: (err) => {
          const fields = createKeyErrors(err);
          form.setErrors({ name: fields.name, expires_at: fields.expires_at });
          setScopesError(fields.scopes);
          if (!fields.name && !fields.scopes && !fields.expires_at)
            notifyError(errorMessage(err, "Failed to create API key"));
        },
      },
    );
  };

  return (
    <>
      <Button leftSection={<IconKey size={16} />} onClick={open}>
        Create API key
      </Button>
      <Modal opened={opened} onClose={dismiss} title="Create API key" centered size="lg">
        <form onSubmit={submit} noValidate data-testid="create-api-key-form">
          <Stack gap="md">
            <TextInput
              label="Name"
              description="Say what uses it, to recognise it later (e.g. “Website sync”)."
              placeholder="Website sync"
              autoComplete="off"
              required
              data-autofocus
              maxLength={100}
              {...form.bind("name")}
            />
            <Checkbox.Group
              label="Scopes"
              description="What the key may do. Give it no more than it needs."
              value={scopes}
              onChange={(value) => {
                setScopes(value as ApiScope[]);
                setScopesError(undefined);
              }}
              error={scopesError}
              withAsterisk
            >
              <Stack gap="xs" mt="xs">
                {API_SCOPES.map((scope) => (
                  <Checkbox key={scope} value={scope} label={scope} description={SCOPE_DESCRIPTIONS[scope]} />
                ))}
              </Stack>
            </Checkbox.Group>
            <TextInput
              type="date"
              label="Expires on"
              description="Optional: the key stops working after this day. Leave empty for a key that never expires."
              min={todayInput()}
              {...form.bind("expires_at")}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={dismiss}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create key
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
