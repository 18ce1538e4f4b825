import { API_SCOPES, type ApiScope, PERSONAL_TOKEN_DEFAULT_DAYS, type PersonalTokenCreated } from "@hangar/contract";
import { Button, Checkbox, Group, Modal, Radio, Select, Stack, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconKey } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { errorMessage } from "../../../lib/api-client";
import { useFormState } from "../../../lib/forms";
import { notifyError } from "../../../lib/notify";
import { useCreatePersonalToken } from "../api";
import { createKeyErrors } from "../dialogs/create-api-key-dialog";
import { expiryInDays, SCOPE_DESCRIPTIONS, TOKEN_EXPIRY_DAYS } from "../scopes";

const EXPIRY_OPTIONS = TOKEN_EXPIRY_DAYS.map((d) => ({
  value: String(d),
  label: d === 365 ? "1 year" : `${d} days`,
}));

/** Describes what a narrowed token may do on top of the scope's own line. */
const TOKEN_SCOPE_NOTE: Partial<Record<ApiScope, string>> = {
  admin: "Everything your role allows in each workspace (the same as full access)",
};

/**
 * "Create token" and its dialog: a name, how long it lasts (90 days unless chosen, a year at most)
 * and what it may do: all your role allows, or only some scopes. On success `onCreated` gets the
 * token with its secret.
 */
export function CreateTokenDialog({ onCreated }: { onCreated(token: PersonalTokenCreated): void }) {
  const [opened, { open, close }] = useDisclosure(false);
  const create = useCreatePersonalToken();
  const form = useFormState({ name: "" });
  const [days, setDays] = useState(String(PERSONAL_TOKEN_DEFAULT_DAYS));
  const [access, setAccess] = useState<"full" | "scoped">("full");
  const [scopes, setScopes] = useState<ApiScope[]>(["assets:read"]);
  const [scopesError, setScopesError] = useState<string | undefined>();
  const [expiryError, setExpiryError] = useState<string | undefined>();

  const dismiss = () => {
    close();
    form.reset();
    setDays(String(PERSONAL_TOKEN_DEFAULT_DAYS));
    setAccess("full");
    setScopes(["assets:read"]);
    setScopesError(undefined);
    setExpiryError(undefined);
    create.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = form.values.name.trim();
    const nameError = name ? undefined : "Name is required";
    const noScope = access === "scoped" && scopes.length === 0 ? "Choose at least one scope" : undefined;
    form.setErrors({ name: nameError });
    setScopesError(noScope);
    if (nameError || noScope) return;
    create.mutate(
      { name, expires_at: expiryInDays(Number(days)), ...(access === "scoped" ? { scopes } : {}) },
      {
        onSuccess: (token) => {
          dismiss();
          onCreated(token);
        },
        onError: (err) => {
          const fields = createKeyErrors(err);
          form.setErrors({ name: fields.name });
          setScopesError(fields.scopes);
          setExpiryError(fields.expires_at);
          if (!fields.name && !fields.scopes && !fields.expires_at)
            notifyError(errorMessage(err, "Failed to create the token"));
        },
      },
    );
  };

  return (
    <>
      <Button leftSection={<IconKey size={16} />} onClick={open} style={{ alignSelf: "flex-start" }}>
        Create token
      </Button>
      <Modal opened={opened} onClose={dismiss} title="Create personal access token" centered size="lg">
        <form onSubmit={submit} noValidate data-testid="create-token-form">
          <Stack gap="md">
            <TextInput
              label="Name"
              description="Say what uses it, to recognise it later (e.g. “Laptop backup script”)."
              placeholder="Laptop backup script"
              autoComplete="off"
              required
              data-autofocus
              maxLength={100}
              {...form.bind("name")}
            />
            <Select
              label="Expires in"
              description="The token stops working after this. Make a new one when it does."
              data={EXPIRY_OPTIONS}
              value={days}
              onChange={(v) => {
                setDays(v ?? String(PERSONAL_TOKEN_DEFAULT_DAYS));
                setExpiryError(undefined);
              }}
              allowDeselect={false}
              error={expiryError}
              data-testid="token-expiry"
            />
            <Radio.Group
              label="Access"
              value={access}
              onChange={(v) => {
                setAccess(v as "full" | "scoped");
                setScopesError(undefined);
              }}
            >
              <Stack gap="xs" mt="xs">
                <Radio
                  value="full"
                  label="Everything you can do"
                  description="Acts as you in each of your workspaces, with your role there."
                />
                <Radio
                  value="scoped"
                  label="Only some things"
                  description="Choose the scopes; give it no more than it needs."
                />
              </Stack>
            </Radio.Group>
            {access === "scoped" && (
              <Checkbox.Group
                label="Scopes"
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
                    <Checkbox
                      key={scope}
                      value={scope}
                      label={scope}
                      description={TOKEN_SCOPE_NOTE[scope] ?? SCOPE_DESCRIPTIONS[scope]}
                    />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={dismiss}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create token
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
