import { DRAWING_COLORS, DRAWING_WIDTHS, type DrawingColor } from "@hangar/contract";
import { ActionIcon, Box, Group, Popover, SimpleGrid, Text, Tooltip, UnstyledButton } from "@mantine/core";
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconArrowUpRight,
  IconCircle,
  IconLine,
  IconMapPin,
  IconPencil,
  IconSquare,
  IconSquareDot,
} from "@tabler/icons-react";
import { type ReactNode, useEffect, useRef } from "react";
import { keepsOwnKeys } from "../../../lib/typing";
import { useReview } from "../review-context";
import { ANNOTATION_TOOLS, type AnnotationTool, TOOL_KEYS, TOOL_LABELS, toolKey } from "./tools";

const ICONS: Record<AnnotationTool, ReactNode> = {
  point: <IconMapPin size={18} />,
  area: <IconSquareDot size={18} />,
  pen: <IconPencil size={18} />,
  line: <IconLine size={18} />,
  arrow: <IconArrowUpRight size={18} />,
  rect: <IconSquare size={18} />,
  ellipse: <IconCircle size={18} />,
};

export const COLOR_NAMES: Record<DrawingColor, string> = {
  "#E03131": "Red",
  "#F76707": "Orange",
  "#FAB005": "Yellow",
  "#2F9E44": "Green",
  "#1C7ED6": "Blue",
  "#AE3EC9": "Violet",
  "#FFFFFF": "White",
  "#000000": "Black",
};
const WIDTH_NAMES = ["Thin", "Medium", "Thick"] as const;

/**
 * The preview's frame for drawing (issue 31): it can take focus (Tab, or a click on the picture), and
 * while it has it P, A, D, L, R and E choose a tool; Ctrl/⌘Z and Ctrl/⌘Shift+Z undo and redo the
 * draft's shapes anywhere in the viewer but a text field. The toolbar shows while commenting.
 */
export function DrawingStage({ children }: { children: ReactNode }) {
  const review = useReview();
  const stage = useRef<HTMLDivElement>(null);
  const latest = useRef(review);
  latest.current = review;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const r = latest.current;
      if (!r?.canComment || !r.annotating || e.altKey || keepsOwnKeys(e.target)) return;
      const key = e.key.toLowerCase();
      if ((e.ctrlKey || e.metaKey) && (key === "z" || key === "y")) {
        const redo = key === "y" || e.shiftKey;
        if (redo ? !r.canRedo : !r.canUndo) return;
        e.preventDefault();
        e.stopPropagation();
        if (redo) r.redo();
        else r.undo();
        return;
      }
      const tool = TOOL_KEYS[key];
      if (!tool || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (!stage.current?.contains(document.activeElement)) return;
      e.preventDefault();
      e.stopImmediatePropagation(); // the player's L (ten seconds on) listens on the same window
      r.setPen({ tool });
    };
    // Capture: the player's own keys (L: ten seconds on) give way while the preview chooses tools.
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, []);
  const tools = !!review && review.canComment && review.annotating;
  return (
    <Box
      ref={stage}
      pos="relative"
      w="100%"
      h="100%"
      tabIndex={tools ? 0 : undefined}
      role={tools ? "group" : undefined}
      aria-label={tools ? "Preview" : undefined}
      data-testid="drawing-stage"
      onPointerDownCapture={(e) => {
        // A click on the picture gives it the keys (the layer's own pointer handling keeps focus where it was).
        if (tools && !stage.current?.contains(document.activeElement) && e.target instanceof Element)
          if (!e.target.closest("button, input, textarea, [role=slider]"))
            stage.current?.focus({ preventScroll: true });
      }}
      style={{ outlineOffset: -2 }}
    >
      {children}
      {tools && <DrawingToolbar />}
    </Box>
  );
}

/** Point, Area, Pen, Line, Arrow, Rectangle, Ellipse; the colour and width; Undo and Redo. */
export function DrawingToolbar() {
  const review = useReview();
  if (!review) return null;
  const { pen } = review;
  return (
    <Group
      gap={2}
      wrap="nowrap"
      pos="absolute"
      top={8}
      left="50%"
      role="toolbar"
      aria-label="Annotation tools"
      data-testid="drawing-toolbar"
      onPointerDown={(e) => e.stopPropagation()}
      style={{ translate: "-50% 0", zIndex: 5, background: "rgba(0,0,0,0.6)", borderRadius: 8, padding: 3 }}
    >
      {ANNOTATION_TOOLS.map((tool) => {
        const key = toolKey(tool);
        return (
          <Tooltip key={tool} label={key ? `${TOOL_LABELS[tool]} (${key})` : TOOL_LABELS[tool]}>
            <ActionIcon
              size={30}
              variant={pen.tool === tool ? "filled" : "subtle"}
              color={pen.tool === tool ? "blue" : "gray.0"}
              aria-label={TOOL_LABELS[tool]}
              aria-pressed={pen.tool === tool}
              aria-keyshortcuts={key ?? undefined}
              data-testid={`tool-${tool}`}
              onClick={() => review.setPen({ tool })}
            >
              {ICONS[tool]}
            </ActionIcon>
          </Tooltip>
        );
      })}
      <Popover position="bottom" withArrow shadow="md" trapFocus>
        <Popover.Target>
          <Tooltip label="Colour and width">
            <UnstyledButton
              aria-label={`Colour and width: ${COLOR_NAMES[pen.color]}, ${WIDTH_NAMES[DRAWING_WIDTHS.indexOf(pen.width)]}`}
              data-testid="pen-style"
              w={30}
              h={30}
              style={{ display: "grid", placeItems: "center" }}
            >
              <Box
                w={18}
                h={18}
                style={{ borderRadius: "50%", background: pen.color, border: "2px solid rgba(255,255,255,0.9)" }}
              />
            </UnstyledButton>
          </Tooltip>
        </Popover.Target>
        <Popover.Dropdown p="xs" data-escape-local>
          <Text size="xs" fw={600} mb={4}>
            Colour
          </Text>
          <SimpleGrid cols={4} spacing={6} role="group" aria-label="Colour">
            {DRAWING_COLORS.map((c) => (
              <UnstyledButton
                key={c}
                aria-label={COLOR_NAMES[c]}
                aria-pressed={pen.color === c}
                data-testid="pen-color"
                onClick={() => review.setPen({ color: c })}
                w={28}
                h={28}
                style={{
                  borderRadius: "50%",
                  background: c,
                  border: "1px solid var(--mantine-color-gray-5)",
                  boxShadow:
                    pen.color === c
                      ? "0 0 0 2px var(--mantine-color-body), 0 0 0 4px var(--mantine-color-blue-6)"
                      : undefined,
                }}
              />
            ))}
          </SimpleGrid>
          <Text size="xs" fw={600} mt="xs" mb={4}>
            Width
          </Text>
          <Group gap={6} role="group" aria-label="Width">
            {DRAWING_WIDTHS.map((w, i) => (
              <UnstyledButton
                key={w}
                aria-label={WIDTH_NAMES[i]}
                aria-pressed={pen.width === w}
                onClick={() => review.setPen({ width: w })}
                w={36}
                h={28}
                style={{
                  display: "grid",
                  placeItems: "center",
                  borderRadius: 6,
                  border: `1px solid ${pen.width === w ? "var(--mantine-color-blue-6)" : "var(--mantine-color-default-border)"}`,
                }}
              >
                <Box w={22} h={w / 2 + 1} style={{ background: "currentColor", borderRadius: 4 }} />
              </UnstyledButton>
            ))}
          </Group>
        </Popover.Dropdown>
      </Popover>
      <HistoryButton
        label="Undo"
        keys="Ctrl+Z"
        icon={<IconArrowBackUp size={18} />}
        enabled={review.canUndo}
        onClick={review.undo}
      />
      <HistoryButton
        label="Redo"
        keys="Ctrl+Shift+Z"
        icon={<IconArrowForwardUp size={18} />}
        enabled={review.canRedo}
        onClick={review.redo}
      />
    </Group>
  );
}

function HistoryButton(props: { label: string; keys: string; icon: ReactNode; enabled: boolean; onClick(): void }) {
  return (
    <Tooltip label={`${props.label} (${props.keys})`}>
      <ActionIcon
        size={30}
        variant="subtle"
        color="gray.0"
        aria-label={props.label}
        aria-keyshortcuts={props.keys.replace("Ctrl", "Control")}
        disabled={!props.enabled}
        style={{ background: "transparent", opacity: props.enabled ? 1 : 0.4 }}
        onClick={props.onClick}
      >
        {props.icon}
      </ActionIcon>
    </Tooltip>
  );
}
