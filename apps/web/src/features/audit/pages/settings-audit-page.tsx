import {
  AUDIT_ACTOR_KINDS,
  AUDIT_RETENTION_MAX_DAYS,
  AUDIT_RETENTION_MIN_DAYS,
  type AuditActorKind,
  canAdmin,
} from "@hangar/contract";
import {
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconDownload, IconInfoCircle, IconListDetails } from "@tabler/icons-react";
import { useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { notifyError } from "../../../lib/notify";
import { EmptyPanel } from "../../../ui/empty-panel";
import { useMembers } from "../../members";
import { type AuditFilters, auditExportUrl, useAuditLog, useAuditSettings, useSaveAuditSettings } from "../api";
import { AuditEventList } from "../components/audit-events";
import { ACTOR_KIND_LABELS, OBJECT_LABELS } from "../describe";

const OBJECT_CHOICES = ["asset", "board", "comment", "member", "share_link", "review", "field", "api_key", "account"];

/** A local calendar day (yyyy-mm-dd) as the instant it starts; `next`: the instant the day after starts. */
function dayStart(day: string, next = false): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + (next ? 1 : 0)).toISOString();
}

/** Settings → Audit log (ADMIN, issue 36): every change, who made it and from where; filters, export, retention. */
export function SettingsAuditPage() {
  const workspace = useCurrentWorkspace();
  if (!canAdmin(workspace.user_role))
    return (
      <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} data-testid="audit-admins-only">
        Only admins read the audit log.
      </Alert>
    );
  return <AuditLog workspaceId={workspace.id} />;
}

function AuditLog({ workspaceId }: { workspaceId: string }) {
  const [params, setParams] = useSearchParams();
  const members = useMembers(workspaceId);
  const set = (key: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const fromDay = params.get("from") ?? "";
  const toDay = params.get("to") ?? "";
  const filters: AuditFilters = useMemo(
    () => ({
      actor_kind: (params.get("actor_kind") as AuditActorKind | null) ?? undefined,
      actor_id: params.get("actor_id") ?? undefined,
      action: params.get("object") ?? undefined,
      from: dayStart(fromDay),
      to: dayStart(toDay, true),
    }),
    [params, fromDay, toDay],
  );
  const log = useAuditLog(workspaceId, filters);
  const filtered = Object.values(filters).some(Boolean);
  const memberChoices = (members.data ?? []).map((m) => ({
    value: m.user_id,
    label: `${m.first_name} ${m.last_name}`.trim() || m.email,
  }));

  return (
    <Stack gap="md" data-testid="audit-page">
      <Text size="sm" c="dimmed" maw={680}>
        Every change in this workspace: who made it (a member, an API key, a share-link visitor or Hangar itself), from
        which address, and what it changed. Sign-ins, downloads of boards and exports are here too.
      </Text>
      <Paper withBorder p="sm" radius="md">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
          <Select
            label="Who"
            placeholder="Anyone"
            clearable
            data={AUDIT_ACTOR_KINDS.map((k) => ({ value: k, label: ACTOR_KIND_LABELS[k] }))}
            value={filters.actor_kind ?? null}
            onChange={(v) => set("actor_kind", v)}
            data-testid="audit-filter-kind"
          />
          <Select
            label="Member"
            placeholder="Any member"
            clearable
            searchable
            data={memberChoices}
            value={filters.actor_id ?? null}
            onChange={(v) => set("actor_id", v)}
            nothingFoundMessage="No such member"
            data-testid="audit-filter-member"
          />
          <Select
            label="What"
            placeholder="Anything"
            clearable
            data={OBJECT_CHOICES.map((o) => ({ value: o, label: OBJECT_LABELS[o] ?? o }))}
            value={filters.action ?? null}
            onChange={(v) => set("object", v)}
            data-testid="audit-filter-object"
          />
          <TextInput
            type="date"
            label="From"
            value={fromDay}
            max={toDay || undefined}
            onChange={(e) => set("from", e.currentTarget.value)}
            data-testid="audit-filter-from"
          />
          <TextInput
            type="date"
            label="To"
            value={toDay}
            min={fromDay || undefined}
            onChange={(e) => set("to", e.currentTarget.value)}
            data-testid="audit-filter-to"
          />
        </SimpleGrid>
        <Group justify="space-between" mt="sm" gap="xs">
          <Button variant="subtle" size="xs" disabled={!filtered} onClick={() => setParams({}, { replace: true })}>
            Clear filters
          </Button>
          <Button
            component="a"
            href={auditExportUrl(workspaceId, filters)}
            download
            variant="default"
            size="xs"
            leftSection={<IconDownload size={14} />}
            data-testid="audit-export"
          >
            Export CSV
          </Button>
        </Group>
      </Paper>
      <AuditEventList
        query={log}
        label="audit log"
        empty={
          <EmptyPanel
            testId="audit-empty"
            icon={<IconListDetails size={28} />}
            title={filtered ? "Nothing matches these filters" : "Nothing recorded yet"}
            description={
              filtered ? "Try another person, object or time range." : "Changes to this workspace will show here."
            }
          />
        }
      />
      <Retention workspaceId={workspaceId} />
    </Stack>
  );
}

function Retention({ workspaceId }: { workspaceId: string }) {
  const settings = useAuditSettings(workspaceId);
  const save = useSaveAuditSettings(workspaceId);
  const [days, setDays] = useState<number | string>("");
  useEffect(() => {
    if (settings.data) setDays(settings.data.retention_days);
  }, [settings.data]);
  const value = typeof days === "number" ? days : Number.NaN;
  const valid = Number.isInteger(value) && value >= AUDIT_RETENTION_MIN_DAYS && value <= AUDIT_RETENTION_MAX_DAYS;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="audit-retention">
      <Title order={3} size="h5" mb={4}>
        Retention
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Entries older than this are deleted each night. Nobody can change or delete an entry before then.
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid)
            save.mutate(
              { retention_days: value },
              { onError: (error) => notifyError(errorMessage(error, "Failed to save the retention")) },
            );
        }}
      >
        <Group align="flex-end" gap="sm">
          <NumberInput
            label="Keep entries for (days)"
            min={AUDIT_RETENTION_MIN_DAYS}
            max={AUDIT_RETENTION_MAX_DAYS}
            value={days}
            onChange={setDays}
            disabled={settings.isPending}
            error={
              days !== "" && !valid
                ? `Between ${AUDIT_RETENTION_MIN_DAYS} and ${AUDIT_RETENTION_MAX_DAYS} days`
                : undefined
            }
            w={200}
            data-testid="audit-retention-days"
          />
          <Button type="submit" loading={save.isPending} disabled={!valid || value === settings.data?.retention_days}>
            Save
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
