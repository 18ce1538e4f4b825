import { type FileType, LISTING_COLOR_NAMES } from "@hangar/contract";
import {
  ActionIcon,
  Chip,
  ColorInput,
  ColorSwatch,
  Group,
  Input,
  NumberInput,
  Pill,
  SegmentedControl,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from "@mantine/core";
import { IconCheck, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { COLOR_SWATCHES, capitalise, FILE_TYPE_OPTIONS } from "../../../entities/asset";

/**
 * Small controlled inputs of the filter builder. Each answers `undefined` for "no condition", so the
 * filter object never carries empty keys (they are pruned anyway).
 */
const orUndefined = <T,>(list: T[]) => (list.length ? list : undefined);

export function FileTypeChips({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: readonly FileType[] | undefined;
  onChange: (value: FileType[] | undefined) => void;
  testId?: string;
}) {
  return (
    <Input.Wrapper label={label}>
      <Chip.Group multiple value={[...(value ?? [])]} onChange={(v) => onChange(orUndefined(v as FileType[]))}>
        <Group gap={6} mt={4} data-testid={testId}>
          {FILE_TYPE_OPTIONS.map((option) => (
            <Chip key={option.value} value={option.value} size="xs" radius="sm">
              {option.label}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
    </Input.Wrapper>
  );
}

export function TextListInput({
  label,
  value,
  onChange,
  data,
  placeholder,
  description,
}: {
  label: string;
  value: readonly string[] | undefined;
  onChange: (value: string[] | undefined) => void;
  data?: string[];
  placeholder?: string;
  description?: string;
}) {
  return (
    <TagsInput
      // A 24 px tall field (WCAG 2.5.8): in the drawer one may sit right above the footer's buttons.
      styles={{ inputField: { minHeight: 24 } }}
      label={label}
      description={description}
      placeholder={placeholder ?? "Type and press Enter"}
      value={[...(value ?? [])]}
      onChange={(v) => onChange(orUndefined(v))}
      data={data}
      splitChars={[","]}
      acceptValueOnBlur
      clearable
      limit={50}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** Numbers typed as text ("1/125", "f/2.8", "50mm"), parsed by `parse`, shown by `format`. */
export function NumberListInput({
  label,
  value,
  onChange,
  parse,
  format,
  placeholder,
}: {
  label: string;
  value: readonly number[] | undefined;
  onChange: (value: number[] | undefined) => void;
  parse: (text: string) => number | null;
  format: (n: number) => string;
  placeholder?: string;
}) {
  const [error, setError] = useState<string | null>(null);
  return (
    <TagsInput
      // A 24 px tall field (WCAG 2.5.8): in the drawer one may sit right above the footer's buttons.
      styles={{ inputField: { minHeight: 24 } }}
      label={label}
      placeholder={placeholder}
      value={(value ?? []).map(format)}
      error={error}
      splitChars={[",", " "]}
      acceptValueOnBlur
      clearable
      onChange={(texts) => {
        const numbers = texts.map(parse);
        const bad = texts.filter((_, i) => numbers[i] === null);
        setError(bad.length ? `Not a number: ${bad.join(", ")}` : null);
        onChange(orUndefined([...new Set(numbers.filter((n): n is number => n !== null))]));
      }}
    />
  );
}

/** A calendar date (the listing takes plain dates; `_to` covers the whole day). */
export function DateField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <TextInput
      type="date"
      label={label}
      value={value ? value.slice(0, 10) : ""}
      onChange={(event) => onChange(event.currentTarget.value || undefined)}
      style={{ flex: 1 }}
    />
  );
}

const toNumber = (v: string | number): number | undefined =>
  v === "" || v === "-" || Number.isNaN(Number(v)) ? undefined : Number(v);

export function RangeFields({
  label,
  min,
  max,
  onChange,
  bounds,
  step,
  unit,
}: {
  label: string;
  min: number | undefined;
  max: number | undefined;
  onChange: (min: number | undefined, max: number | undefined) => void;
  bounds?: [number, number];
  step?: number;
  unit?: string;
}) {
  return (
    <Input.Wrapper label={label}>
      <Group gap="xs" grow mt={4}>
        <NumberInput
          aria-label={`${label} minimum`}
          placeholder="Min"
          value={min ?? ""}
          min={bounds?.[0]}
          max={bounds?.[1]}
          step={step}
          rightSection={unit ? <Text size="xs">{unit}</Text> : undefined}
          onChange={(v) => onChange(toNumber(v), max)}
        />
        <NumberInput
          aria-label={`${label} maximum`}
          placeholder="Max"
          value={max ?? ""}
          min={bounds?.[0]}
          max={bounds?.[1]}
          step={step}
          rightSection={unit ? <Text size="xs">{unit}</Text> : undefined}
          onChange={(v) => onChange(min, toNumber(v))}
        />
      </Group>
    </Input.Wrapper>
  );
}

/** Any / yes / no for an optional boolean. */
export function TriState({
  label,
  value,
  onChange,
  yes,
  no,
}: {
  label: string;
  value: boolean | undefined;
  onChange: (value: boolean | undefined) => void;
  yes: string;
  no: string;
}) {
  return (
    <Input.Wrapper label={label}>
      <SegmentedControl
        mt={4}
        fullWidth
        size="xs"
        aria-label={label}
        value={value === undefined ? "any" : value ? "yes" : "no"}
        onChange={(v) => onChange(v === "any" ? undefined : v === "yes")}
        data={[
          { value: "any", label: "Any" },
          { value: "yes", label: yes },
          { value: "no", label: no },
        ]}
      />
    </Input.Wrapper>
  );
}

/** The simplified colour names as swatch toggles (any of them). */
export function ColorNameToggles({
  value,
  onChange,
}: {
  value: readonly string[] | undefined;
  onChange: (value: string[] | undefined) => void;
}) {
  const selected = new Set(value ?? []);
  return (
    <Input.Wrapper label="Colour names" description="Any of these is among the image's main colours">
      <Group gap={8} mt={6} data-testid="colour-names">
        {LISTING_COLOR_NAMES.map((name) => {
          const on = selected.has(name);
          return (
            <Tooltip key={name} label={capitalise(name)} openDelay={200}>
              <UnstyledButton
                aria-label={capitalise(name)}
                aria-pressed={on}
                onClick={() =>
                  onChange(orUndefined(LISTING_COLOR_NAMES.filter((n) => (n === name ? !on : selected.has(n)))))
                }
              >
                <ColorSwatch
                  component="span"
                  color={COLOR_SWATCHES[name]}
                  size={28}
                  style={{
                    outline: on ? "2px solid var(--mantine-primary-color-filled)" : undefined,
                    outlineOffset: 2,
                    color: name === "white" || name === "yellow" ? "#000" : "#fff",
                  }}
                >
                  {on && <IconCheck size={14} />}
                </ColorSwatch>
              </UnstyledButton>
            </Tooltip>
          );
        })}
      </Group>
    </Input.Wrapper>
  );
}

/** A list of hex colours: pick one, add it; each shows as a removable swatch. */
export function HexListInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: readonly string[] | undefined;
  onChange: (value: string[] | undefined) => void;
}) {
  const [draft, setDraft] = useState("");
  const valid = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i.test(draft);
  const add = () => {
    if (!valid) return;
    const list = value ?? [];
    if (!list.some((h) => h.toLowerCase() === draft.toLowerCase())) onChange([...list, draft.toLowerCase()]);
    setDraft("");
  };
  return (
    <Stack gap={6}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <ColorInput
          label={label}
          placeholder="#1e90ff"
          value={draft}
          onChange={setDraft}
          format="hex"
          withEyeDropper={false}
          onKeyDown={(event) => event.key === "Enter" && add()}
          style={{ flex: 1 }}
          popoverProps={{ withinPortal: true }}
        />
        <ActionIcon size="lg" variant="default" aria-label={`Add to ${label}`} disabled={!valid} onClick={add}>
          <IconPlus size={16} />
        </ActionIcon>
      </Group>
      {value && value.length > 0 && (
        <Group gap={6}>
          {value.map((hex) => (
            <Pill
              key={hex}
              withRemoveButton
              removeButtonProps={{ "aria-label": `Remove ${hex}`, "aria-hidden": false, tabIndex: 0 }}
              onRemove={() => onChange(orUndefined(value.filter((h) => h !== hex)))}
            >
              <Group gap={4} wrap="nowrap" component="span">
                <ColorSwatch component="span" color={hex} size={12} />
                {hex}
              </Group>
            </Pill>
          ))}
        </Group>
      )}
    </Stack>
  );
}
