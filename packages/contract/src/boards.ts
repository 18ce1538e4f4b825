import { z } from "zod";
import { BoardAbilities, type BoardAbilities as BoardAbilitiesT } from "./access.ts";
import { Id } from "./common.ts";

export const BoardName = z.string().trim().min(1, "Name is required").max(200, "Name is too long");

/** A parent reference: a board id, or the root (null or the text "root"). */
export const ParentRef = z.union([Id, z.literal("root"), z.null()]).transform((v) => (v === "root" ? null : v));

export interface Board {
  id: string;
  name: string;
  parent_id: string | null;
  child_count: number;
  position: number;
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
export const CreateBoardBody = z.object({ name: BoardName, parent_id: ParentRef.optional() });
export const UpdateBoardBody = z
  .object({ name: BoardName.optional(), parent_id: ParentRef.optional() })
  .refine((b) => b.name !== undefined || b.parent_id !== undefined, { message: "Send a name or a parent_id" });
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

export const TREE_INDENT_PX = 18;
export const TREE_FILTER_YIELD_EVERY = 80;
