import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type ScreenReaderInstructions,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ActionIcon } from "@mantine/core";
import { IconGripVertical } from "@tabler/icons-react";
import { type CSSProperties, createContext, type ReactNode, useContext, useMemo } from "react";

/**
 * Drag-to-reorder for the settings lists (fields, a field's options), on @dnd-kit: a pointer drag by the
 * handle, or the keyboard on the focused handle (Space picks up, the arrows move, Space drops, Escape
 * cancels) with what happens said to screen readers. Only the settings chunk imports this file.
 */
export type SortableEntry = { id: string; label: string };

const Sorting = createContext(false);

const instructions: ScreenReaderInstructions = {
  draggable:
    "To reorder, press Space to pick this item up, the up and down arrows to move it, Space again to drop it, " +
    "or Escape to cancel.",
};

function announcements(entries: SortableEntry[], noun: string): Announcements {
  const at = (id: UniqueIdentifier) => entries.findIndex((e) => e.id === id);
  const name = (id: UniqueIdentifier) => entries[at(id)]?.label ?? noun;
  const of = (id: UniqueIdentifier) => `position ${at(id) + 1} of ${entries.length}`;
  // The item is over itself as the drag starts: that is not a move (it would drown the pick-up's words).
  let last: UniqueIdentifier | null = null;
  return {
    onDragStart: ({ active }) => {
      last = active.id;
      return `Picked up ${noun} ${name(active.id)}, at ${of(active.id)}.`;
    },
    onDragOver: ({ active, over }) => {
      if ((over?.id ?? null) === last) return undefined;
      last = over?.id ?? null;
      return over ? `${name(active.id)} moved to ${of(over.id)}.` : `${name(active.id)} is no longer over the list.`;
    },
    onDragEnd: ({ active, over }) =>
      over ? `${name(active.id)} dropped at ${of(over.id)}.` : `${name(active.id)} dropped where it was.`,
    onDragCancel: ({ active }) => `Moving ${name(active.id)} cancelled; it stays at ${of(active.id)}.`,
  };
}

/**
 * A vertical list whose items (SortableItem, in the same order as `entries`) can be dragged when
 * `enabled`; a drop answers the whole new order of ids. Not enabled, it renders the items as they are.
 */
export function SortableList(props: {
  entries: SortableEntry[];
  noun: string;
  enabled: boolean;
  onMove(ids: string[]): void;
  children: ReactNode;
}) {
  const { entries, noun, enabled, onMove } = props;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = useMemo(() => entries.map((e) => e.id), [entries]);
  const accessibility = useMemo(
    () => ({ announcements: announcements(entries, noun), screenReaderInstructions: instructions }),
    [entries, noun],
  );
  if (!enabled) return <>{props.children}</>;
  const end = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from < 0 || to < 0) return;
    onMove(arrayMove(ids, from, to));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} accessibility={accessibility} onDragEnd={end}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <Sorting.Provider value={true}>{props.children}</Sorting.Provider>
      </SortableContext>
    </DndContext>
  );
}

export type SortableRender = {
  ref?: (el: HTMLElement | null) => void;
  style?: CSSProperties;
  /** The drag handle, or null where the list is not sortable (read-only). */
  handle: ReactNode;
  dragging: boolean;
};

/** One item: `children` places the handle and puts `ref` and `style` on the element that moves. */
export function SortableItem(props: { entry: SortableEntry; children(r: SortableRender): ReactNode }) {
  const sorting = useContext(Sorting);
  if (!sorting) return <>{props.children({ handle: null, dragging: false })}</>;
  return <LiveItem {...props} />;
}

function LiveItem({ entry, children }: { entry: SortableEntry; children(r: SortableRender): ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: entry.id,
  });
  const style: CSSProperties = {
    transform: CSS.Translate.toString(transform && { ...transform, x: 0 }),
    transition,
    position: "relative",
    zIndex: isDragging ? 2 : undefined,
    boxShadow: isDragging ? "var(--mantine-shadow-md)" : undefined,
  };
  const handle = (
    <ActionIcon
      ref={setActivatorNodeRef}
      variant="subtle"
      color="gray"
      aria-label={`Drag to reorder ${entry.label}`}
      data-testid="drag-handle"
      style={{ cursor: isDragging ? "grabbing" : "grab", touchAction: "none", flexShrink: 0 }}
      {...attributes}
      {...listeners}
    >
      <IconGripVertical size={16} />
    </ActionIcon>
  );
  return <>{children({ ref: setNodeRef, style, handle, dragging: isDragging })}</>;
}
