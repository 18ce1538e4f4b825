import { ColorInput, MultiSelect, NumberInput, Select, Stack, Switch, TagsInput, TextInput } from "@mantine/core";

/** The part of JSON Schema (draft 2020-12, as zod writes it) the form understands. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  pattern?: string;
}

export type FormValues = Record<string, unknown>;

/** Starting values: the saved config over the schema's defaults. */
export function initialValues(schema: JsonSchema, saved?: FormValues): FormValues {
  const out: FormValues = {};
  for (const [k, p] of Object.entries(schema.properties ?? {})) {
    if (saved && saved[k] !== undefined) out[k] = saved[k];
    else if (p.default !== undefined) out[k] = p.default;
  }
  return out;
}

/** What is sent: empty texts, lists and numbers left out (the server fills defaults, refuses gaps). */
export function cleanValues(values: FormValues): FormValues {
  return Object.fromEntries(
    Object.entries(values).filter(
      ([, v]) => v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && v.length === 0),
    ),
  );
}

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type);

/**
 * A form generated from a JSON Schema object: enums become selects, string lists tags (or a
 * multi-select of their enum), numbers number inputs with their bounds, booleans switches, and a
 * `color` field a colour picker. Labels are the properties' descriptions.
 */
export function SchemaForm({
  schema,
  values,
  onChange,
  errors,
}: {
  schema: JsonSchema;
  values: FormValues;
  onChange: (next: FormValues) => void;
  errors?: Record<string, string>;
}) {
  const set = (k: string, v: unknown) => onChange({ ...values, [k]: v });
  const required = new Set(schema.required ?? []);
  return (
    <Stack gap="xs">
      {Object.entries(schema.properties ?? {}).map(([k, p]) => {
        const label = p.description ?? k;
        const common = { label, error: errors?.[k], withAsterisk: required.has(k), "data-testid": `schema-${k}` };
        const t = typeOf(p);
        if (t === "array") {
          const list = (values[k] as string[] | undefined) ?? [];
          if (p.items?.enum)
            return (
              <MultiSelect
                key={k}
                {...common}
                searchable
                data={p.items.enum.map(String)}
                value={list}
                onChange={(v) => set(k, v)}
              />
            );
          return <TagsInput key={k} {...common} value={list} onChange={(v) => set(k, v)} acceptValueOnBlur />;
        }
        if (p.enum)
          return (
            <Select
              key={k}
              {...common}
              clearable={!required.has(k) && p.default === undefined}
              data={p.enum.map(String)}
              value={(values[k] as string | undefined) ?? null}
              onChange={(v) => set(k, v ?? undefined)}
            />
          );
        if (t === "boolean")
          return (
            <Switch
              key={k}
              label={label}
              data-testid={`schema-${k}`}
              checked={values[k] === true}
              onChange={(e) => set(k, e.currentTarget.checked)}
            />
          );
        if (t === "number" || t === "integer")
          return (
            <NumberInput
              key={k}
              {...common}
              min={p.minimum}
              max={p.maximum}
              step={p.maximum !== undefined && p.maximum <= 1 ? 0.05 : 1}
              decimalScale={t === "integer" ? 0 : 4}
              value={(values[k] as number | undefined) ?? ""}
              onChange={(v) => set(k, typeof v === "number" ? v : undefined)}
            />
          );
        if (k === "color" || k.endsWith("_color"))
          return (
            <ColorInput
              key={k}
              {...common}
              format="hex"
              value={(values[k] as string | undefined) ?? ""}
              onChange={(v) => set(k, v)}
            />
          );
        return (
          <TextInput
            key={k}
            {...common}
            value={(values[k] as string | undefined) ?? ""}
            onChange={(e) => set(k, e.currentTarget.value)}
          />
        );
      })}
    </Stack>
  );
}
