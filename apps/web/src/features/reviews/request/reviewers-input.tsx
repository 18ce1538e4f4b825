import type { Member } from "@hangar/contract";
import { Combobox, Group, Pill, PillsInput, Text, useCombobox } from "@mantine/core";
import { IconMail, IconUser } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { addEntries, entryId, entryLabel, memberEntry, memberName, parseTyped, type ReviewerEntry } from "./payload";

const SUGGESTIONS = 8;

/**
 * A stage's reviewers: members picked from suggestions (by name or address) or outsiders' addresses
 * typed in (Enter, comma, space or leaving the box adds them; a member's address becomes that member).
 * `taken` are reviewers of other stages, left out of the suggestions (one stage each).
 */
export function ReviewersInput({
  label,
  members,
  value,
  onChange,
  taken,
  error,
  testId,
}: {
  label: string;
  members: readonly Member[];
  value: ReviewerEntry[];
  onChange(next: ReviewerEntry[]): void;
  taken: ReadonlySet<string>;
  error?: string | null;
  testId?: string;
}) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState("");
  const [typingError, setTypingError] = useState<string | null>(null);

  const chosen = useMemo(() => new Set(value.map(entryId)), [value]);
  const term = search.trim().toLowerCase();
  const options = useMemo(
    () =>
      members
        .filter((m) => !chosen.has(`user:${m.user_id}`) && !taken.has(`user:${m.user_id}`))
        .filter((m) => !term || memberName(m).toLowerCase().includes(term) || m.email.toLowerCase().includes(term))
        .slice(0, SUGGESTIONS),
    [members, chosen, taken, term],
  );

  const pick = (member: Member) => {
    onChange(addEntries(value, [memberEntry(member)]));
    setSearch("");
    setTypingError(null);
  };
  /** Adds what is typed; true when something was added or nothing was typed. */
  const commit = () => {
    if (!search.trim()) return true;
    const { entries, rest } = parseTyped(search, members);
    if (entries.length) onChange(addEntries(value, entries));
    setSearch(rest);
    setTypingError(rest ? "Pick a member or enter an e-mail address" : null);
    return entries.length > 0;
  };
  const remove = (id: string) => onChange(value.filter((e) => entryId(e) !== id));

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(id) => {
        const member = members.find((m) => m.user_id === id);
        if (member) pick(member);
        combobox.closeDropdown();
      }}
      withinPortal
    >
      <Combobox.DropdownTarget>
        <PillsInput
          label={label}
          error={typingError ?? error}
          onClick={() => combobox.openDropdown()}
          data-testid={testId}
        >
          <Pill.Group>
            {value.map((entry) => (
              <Pill
                key={entryId(entry)}
                title={entry.email}
                withRemoveButton
                onRemove={() => remove(entryId(entry))}
                removeButtonProps={{ "aria-label": `Remove ${entryLabel(entry)}` }}
              >
                <Group gap={4} wrap="nowrap" component="span">
                  {entry.kind === "member" ? <IconUser size={12} aria-hidden /> : <IconMail size={12} aria-hidden />}
                  {entryLabel(entry)}
                </Group>
              </Pill>
            ))}
            <Combobox.EventsTarget>
              <PillsInput.Field
                value={search}
                placeholder={value.length ? "" : "Name or e-mail address"}
                aria-label={`${label}: add a member or an e-mail address`}
                onFocus={() => combobox.openDropdown()}
                onBlur={() => {
                  combobox.closeDropdown();
                  commit();
                }}
                onChange={(event) => {
                  const text = event.currentTarget.value;
                  combobox.updateSelectedOptionIndex();
                  setTypingError(null);
                  // A separator typed after an address adds it at once (pasting a list works too).
                  if (/[,;\s]$/.test(text) && parseTyped(text, members).entries.length) {
                    const { entries, rest } = parseTyped(text, members);
                    onChange(addEntries(value, entries));
                    setSearch(rest);
                    return;
                  }
                  setSearch(text);
                  combobox.openDropdown();
                }}
                onKeyDown={(event) => {
                  if (event.key === "Enter") {
                    // A highlighted suggestion is Combobox's to submit; else the typed address is added.
                    if (combobox.getSelectedOptionIndex() >= 0 && combobox.dropdownOpened) return;
                    event.preventDefault();
                    commit();
                    combobox.closeDropdown();
                  } else if (event.key === "Backspace" && search.length === 0 && value.length > 0) {
                    event.preventDefault();
                    remove(entryId(value[value.length - 1]!));
                  }
                }}
              />
            </Combobox.EventsTarget>
          </Pill.Group>
        </PillsInput>
      </Combobox.DropdownTarget>
      <Combobox.Dropdown hidden={options.length === 0}>
        <Combobox.Options>
          {options.map((m) => (
            <Combobox.Option key={m.user_id} value={m.user_id}>
              <Text size="sm">{memberName(m)}</Text>
              <Text size="xs" c="dimmed">
                {m.email}
              </Text>
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
