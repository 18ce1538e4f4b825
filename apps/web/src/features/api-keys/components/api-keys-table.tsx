import type { ApiKey } from "@hangar/contract";
import { Code } from "@mantine/core";
import {
  Dim,
  dateFormat,
  momentFormat,
  ScopeBadges,
  type SecretColumn,
  SecretsTable,
  StateBadge,
} from "./secrets-table";

export interface ApiKeysTableProps {
  keys: readonly ApiKey[];
  /** The key being revoked, if any (its button spins). */
  revokingId: string | null;
  onRevoke(key: ApiKey): void;
}

const COLUMNS: SecretColumn<ApiKey>[] = [
  { header: "Prefix", cell: (key) => <Code>{key.prefix}…</Code> },
  { header: "Scopes", cell: (key) => <ScopeBadges scopes={key.scopes} />, wide: true },
  { header: "Created by", cell: (key) => <Dim text={key.created_by?.name ?? null} empty="Deleted user" /> },
  { header: "Created", cell: (key) => <Dim text={dateFormat.format(new Date(key.created_at))} /> },
  {
    header: "Last used",
    cell: (key) => <Dim text={key.last_used_at && momentFormat.format(new Date(key.last_used_at))} empty="Never" />,
  },
  {
    header: "Expires",
    cell: (key) => <Dim text={key.expires_at && dateFormat.format(new Date(key.expires_at))} empty="Never" />,
  },
  { header: "State", cell: (key) => <StateBadge row={key} testId="api-key" /> },
];

/** The workspace's API keys (the shared secrets table, with a key's columns). */
export function ApiKeysTable(props: ApiKeysTableProps) {
  return (
    <SecretsTable
      rows={props.keys}
      columns={COLUMNS}
      revokingId={props.revokingId}
      onRevoke={props.onRevoke}
      testId="api-key"
      noun="key"
      minWidth={980}
    />
  );
}
