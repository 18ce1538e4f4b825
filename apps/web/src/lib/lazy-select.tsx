import { CloseButton, type ComboboxItem, type SelectProps, TextInput } from "@mantine/core";
import { type ComponentType, type KeyboardEvent, useRef, useState } from "react";
import { loadOnce } from "./load-once";
import { whenReleased } from "./when-released";

type RealSelect = ComponentType<SelectProps>;

const selectModule = loadOnce(() => import("./select-real").then((mod) => mod.Select as RealSelect));
const loadSelect = selectModule.load;

/** Mantine's Combobox chevron (up and down), as the Select draws it. */
function Chevron() {
  return (
    <svg viewBox="0 0 15 15" fill="none" width={18} height={18} color="var(--mantine-color-gray-6)" aria-hidden>
      <path
        d="M4.93179 5.43179C4.75605 5.60753 4.75605 5.89245 4.93179 6.06819C5.10753 6.24392 5.39245 6.24392 5.56819 6.06819L7.49999 4.13638L9.43179 6.06819C9.60753 6.24392 9.89245 6.24392 10.0682 6.06819C10.2439 5.89245 10.2439 5.60753 10.0682 5.43179L7.81819 3.18179C7.73379 3.0974 7.61933 3.04999 7.49999 3.04999C7.38064 3.04999 7.26618 3.0974 7.18179 3.18179L4.93179 5.43179ZM10.0682 9.56819C10.2439 9.39245 10.2439 9.10753 10.0682 8.93179C9.89245 8.75606 9.60753 8.75606 9.43179 8.93179L7.49999 10.8636L5.56819 8.93179C5.39245 8.75606 5.10753 8.75606 4.93179 8.93179C4.75605 9.10753 4.75605 9.39245 4.93179 9.56819L7.18179 11.8182C7.35753 11.9939 7.64245 11.9939 7.81819 11.8182L10.0682 9.56819Z"
        fill="currentColor"
        fillRule="evenodd"
        clipRule="evenodd"
      />
    </svg>
  );
}

const OPEN_KEYS = new Set(["Enter", " ", "ArrowDown", "ArrowUp"]);

/**
 * Mantine's Select, fetched when first wanted instead of in the page's first load (issue 11). Until
 * then a read-only input of the same look stands in (the chosen label, the chevron, role combobox);
 * pointing at it or focusing it fetches the Select, and a click or an opening key shows it open.
 * Takes Select's props; `data` as value/label items.
 */
export function LazySelect(props: Omit<SelectProps, "data"> & { data: ComboboxItem[] }) {
  const [Real, setReal] = useState<RealSelect | null>(selectModule.get);
  const [openFirst, setOpenFirst] = useState(false);
  const [focusFirst, setFocusFirst] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  if (Real) return <Real {...props} defaultDropdownOpened={openFirst} autoFocus={focusFirst || props.autoFocus} />;

  const swap = (open: boolean) =>
    void loadSelect().then(() =>
      whenReleased(() => {
        const focused = document.activeElement === input.current;
        // A Select that arrives under keyboard focus without being asked to open waits for the ask or the blur.
        if (focused && !open) return;
        setOpenFirst(open);
        setFocusFirst(focused);
        setReal(selectModule.get);
      }),
    );

  const { data, value, placeholder, clearable, onChange, leftSection, size, w, disabled } = props;
  const label = data.find((item) => item.value === value)?.label ?? "";
  return (
    <TextInput
      ref={input}
      readOnly
      role="combobox"
      aria-haspopup="listbox"
      aria-expanded={false}
      aria-label={props["aria-label"]}
      data-testid={(props as { "data-testid"?: string })["data-testid"]}
      value={label}
      placeholder={placeholder}
      size={size}
      w={w}
      disabled={disabled}
      leftSection={leftSection}
      styles={{ input: { cursor: "pointer" } }}
      rightSection={
        clearable && value ? (
          <CloseButton size="sm" aria-label="Clear selection" onClick={() => onChange?.(null, null as never)} />
        ) : (
          <Chevron />
        )
      }
      rightSectionPointerEvents={clearable && value ? "all" : "none"}
      onPointerEnter={() => swap(false)}
      onFocus={() => swap(false)}
      onBlur={() => swap(false)}
      onClick={() => swap(true)}
      onKeyDown={(event: KeyboardEvent) => {
        if (!OPEN_KEYS.has(event.key)) return;
        event.preventDefault();
        swap(true);
      }}
    />
  );
}
