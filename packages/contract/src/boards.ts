import { z } from "zod";
import { BoardAbilities, type BoardAbilities as BoardAbilitiesT } from "./access.ts";
import { Id } from "./common.ts";
import { AssetListBody } from "./listing.ts";

export const BoardName = z.string().trim().min(1, "Name is required").max(200, "Name is too long");

/** A parent reference: a board id, or the root (null or the text "root"). */
export const ParentRef = z.union([Id, z.literal("root"), z.null()]).transform((v) => (v === "root" ? null : v));

/**
 * Smart boards (issue 33): a board is `normal` (assets are filed in it) or `smart` (it holds a saved
 * listing filter and shows whatever matches it now; nothing can be filed in it, and it has no
 * sub-boards). The saved filter is the listing payload's conditions (contract listing.ts), without
 * paging or order; at least one condition. Listing a smart board (`board_id` in the listing payload,
 * or a share link of it) is the workspace listing with the saved filter AND the request's own
 * conditions: a request narrows a smart board, never widens it. `board_id` inside a saved filter must
 * name a normal board; `favorite` is whoever looks (a share-link visitor has none).
 */
export const BOARD_KINDS = ["normal", "smart"] as const;
export const BoardKind = z.enum(BOARD_KINDS);
export type BoardKind = z.infer<typeof BoardKind>;
export const SmartBoardFilter = AssetListBody.omit({ page: true, page_size: true, cursor: true, order_by: true })
  .strict()
  .refine((f) => Object.values(f).some((v) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)), {
    message: "A smart board needs at least one filter",
  });
export type SmartBoardFilter = z.infer<typeof SmartBoardFilter>;

export interface Board {
  id: string;
  name: string;
  parent_id: string | null;
  child_count: number;
  position: number;
  /** Absent in answers made before issue 33: "normal". */
  kind?: BoardKind;
  /** A smart board's saved filter (members only; a share link never shows it). */
  filter?: SmartBoardFilter | null;
  abilities: BoardAbilitiesT;
  children?: Board[];
}
export const Board: z.ZodType<Board> = z
  .object({
    id: Id,
    name: z.string(),
    parent_id: Id.nullable(),
    child_count: z.number().int(),
    position: z.number().int(),
    kind: BoardKind.optional(),
    filter: SmartBoardFilter.nullable().optional(),
    abilities: BoardAbilities,
    get children() {
      return z.array(Board).optional();
    },
  })
  .meta({ id: "Board" });
export const BoardList = z.array(Board);

export const BoardParams = z.object({ id: Id, boardId: Id });
export const BoardsQuery = z.object({
  parent_id: z.union([Id, z.literal("root"), z.literal("null"), z.literal("")]).optional(),
  recursive: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => v === "true" || v === "1"),
});
export const CreateBoardBody = z
  .object({
    name: BoardName,
    parent_id: ParentRef.optional(),
    /** Issue 33: "smart" with a `filter`; absent or "normal" without one. */
    kind: BoardKind.optional(),
    filter: SmartBoardFilter.optional(),
  })
  .refine((b) => (b.kind === "smart") === (b.filter !== undefined), {
    message: "A smart board needs a filter, and only a smart board has one",
    path: ["filter"],
  });
export type CreateBoardBody = z.infer<typeof CreateBoardBody>;
export const UpdateBoardBody = z
  .object({
    name: BoardName.optional(),
    parent_id: ParentRef.optional(),
    /** A smart board's new saved filter (issue 33); 409 on a normal board. */
    filter: SmartBoardFilter.optional(),
  })
  .refine((b) => b.name !== undefined || b.parent_id !== undefined || b.filter !== undefined, {
    message: "Send a name, a parent_id or a filter",
  });
export type UpdateBoardBody = z.infer<typeof UpdateBoardBody>;

export const ReorderEntry = z.object({ board_id: Id, new_order: z.number().int().min(0) });
export const ReorderBody = z.array(ReorderEntry).min(1, "Send at least one entry").max(10_000);
export type ReorderEntry = z.infer<typeof ReorderEntry>;

export const AssetIdsBody = z.object({ asset_ids: z.array(Id).min(1, "Send at least one asset id").max(10_000) });

export const BoardAncestor = z.object({ id: Id, name: z.string(), parent_id: Id.nullable() });
export const BoardAncestors = z.array(BoardAncestor);

export const DeleteBoardAnswer = z.object({
  status: z.literal("ok"),
  batch_id: Id,
  deleted_boards: z.number().int(),
  deleted_assets: z.number().int(),
});
export const BoardAssetsAnswer = z.object({ status: z.literal("ok"), count: z.number().int() });
export const RestoreAnswer = z.object({
  status: z.literal("ok"),
  restored_boards: z.number().int(),
  restored_assets: z.number().int(),
});

/** Texts the boards panel shows (spec 01 §2, §8). */
export const BOARD_MESSAGES = {
  loadFailed: "Failed to load boards",
  empty: "No boards found",
  created: "Board created successfully",
  reordered: "Board reordered successfully",
  moved: "Board moved successfully",
  updated: "Board updated successfully",
  renamed: "Board renamed successfully",
  deleted: "Board deleted successfully",
  movedTo: (name: string | null) => `Moved board to: ${name ?? "root level"}`,
  createFailed: "Failed to create board",
  moveFailed: "Failed to move board",
  reorderFailed: "Failed to reorder boards",
  updateFailed: "Failed to update board",
  deleteFailed: "Failed to delete board",
  renameFailed: "Failed to rename board",
  confirmDelete: "Are you sure you want to delete this board?",
  placeholder: "Board Name",
} as const;

/** Texts of smart boards (issue 33): the server's refusals, the web's labels. */
export const SMART_BOARD_MESSAGES = {
  noFiling: "This is a smart board: it shows whatever matches its filter, and assets cannot be filed into it.",
  noChildren: "A smart board cannot hold sub-boards. Create the board next to it or under a normal board.",
  notSmart: "Only a smart board has a filter.",
  selfFilter: "A smart board's filter cannot name the smart board itself.",
  smartInFilter: "A smart board's filter can name only a normal board (a smart board has no filed assets).",
  boardGone: "The board named in the filter was not found.",
  similarGone: "The asset named in similar_to was not found.",
  saveAs: "Save as smart board",
  saved: "Smart board saved",
  filterUpdated: "Smart board filter updated",
  editFilter: "Edit filter",
  badge: "Smart board",
} as const;

export const TREE_INDENT_PX = 18;
export const TREE_FILTER_YIELD_EVERY = 80;
