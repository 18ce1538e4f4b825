import { randomUUID } from "node:crypto";
import {
  type Board,
  type ReorderEntry,
  SMART_BOARD_MESSAGES as SMART,
  type SmartBoardFilter,
  type UpdateBoardBody,
} from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { type Access, type Grant, inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { conflict, invalid, notFound } from "../../platform/errors.ts";
import type { AssetLifecycle } from "../assets/index.ts";
import { BOARD, boardAbilities } from "./policy.ts";
import { boardsRepo } from "./repo.ts";

export function createBoardsService(deps: {
  db: Db;
  access: Access;
  assets: AssetLifecycle;
  /** Whether the asset a saved filter's `similar_to` names is live (the similar feature answers). */
  similarTarget?: (workspaceId: string, assetId: string) => Promise<boolean>;
}) {
  const { db, access } = deps;

  /**
   * What a saved filter may not hold (issue 33): a board filter naming this smart board, another smart
   * board (a smart board has no filed assets, and smart boards naming each other could loop) or no live
   * board; a similar_to of no live asset. 422 naming the field.
   */
  async function checkFilter(tx: Db, workspaceId: string, selfId: string | null, filter: SmartBoardFilter) {
    if (filter.board_id) {
      const field = "filter.board_id";
      if (filter.board_id === selfId) throw invalid(SMART.selfFilter, [{ field, message: SMART.selfFilter }]);
      const named = await boardsRepo.get(tx, workspaceId, filter.board_id);
      if (!named) throw invalid(SMART.boardGone, [{ field, message: SMART.boardGone }]);
      if (named.kind === "smart") throw invalid(SMART.smartInFilter, [{ field, message: SMART.smartInFilter }]);
    }
    if (filter.similar_to && !(await deps.similarTarget?.(workspaceId, filter.similar_to.asset_id)))
      throw invalid(SMART.similarGone, [{ field: "filter.similar_to.asset_id", message: SMART.similarGone }]);
  }
  /** A parent must be a live normal board: a smart board holds no sub-boards. */
  async function checkParent(tx: Db, workspaceId: string, parentId: string, missing: string) {
    const parent = await boardsRepo.get(tx, workspaceId, parentId);
    if (!parent) throw notFound(missing);
    if (parent.kind === "smart") throw conflict(SMART.noChildren);
  }

  async function liveBoard(workspaceId: string, boardId: string) {
    const b = await boardsRepo.get(db, workspaceId, boardId);
    if (!b) throw notFound("Board not found.");
    return b;
  }
  async function toBoard(grant: Grant, workspaceId: string, boardId: string): Promise<Board> {
    const b = await liveBoard(workspaceId, boardId);
    const children = await boardsRepo.listChildren(db, workspaceId, b.id);
    return { ...b, child_count: children.length, abilities: boardAbilities(grant) };
  }

  async function restoreBatch(workspaceId: string, batch: string) {
    return db.transaction().execute(async (tx) => {
      // Tops go back under their parent when it is live, else to the root, at the end of that group.
      for (const top of await boardsRepo.batchTops(tx, workspaceId, batch)) {
        const parent = top.parent_live ? top.parent_id : null;
        await boardsRepo.lockSiblings(tx, workspaceId, parent);
        await boardsRepo.update(tx, top.id, {
          parent_id: parent,
          position: await boardsRepo.nextPosition(tx, workspaceId, parent),
        });
      }
      const boards = await boardsRepo.restoreBatch(tx, workspaceId, batch);
      return { boards, assets: await deps.assets.restoreBatch(workspaceId, batch, tx) };
    });
  }

  return {
    restoreBatch,
    async assertLive(workspaceId: string, boardId: string) {
      await liveBoard(workspaceId, boardId);
    },
    /** 404 unless live; 409 for a smart board (uploads, moves and file requests file into boards). */
    async assertFileable(workspaceId: string, boardId: string) {
      if ((await liveBoard(workspaceId, boardId)).kind === "smart") throw conflict(SMART.noFiling);
    },
    /** A live board's kind and saved filter (404 otherwise): the listing reads smart boards through it. */
    async kindOf(workspaceId: string, boardId: string): Promise<{ kind: "normal" | "smart"; filter: unknown }> {
      const b = await liveBoard(workspaceId, boardId);
      return { kind: b.kind, filter: b.filter };
    },
    smartInSubtree: (workspaceId: string, rootId: string) => boardsRepo.smartInSubtree(db, workspaceId, rootId),
    smartAmong: (workspaceId: string, boardIds: string[]) => boardsRepo.smartAmong(db, workspaceId, boardIds),
    /**
     * The board at `names` below `parentId` (or the root), reusing a live board of the same name under
     * the same parent and creating the rest; used by folder uploads.
     */
    async ensurePath(actor: UserActor, workspaceId: string, parentId: string | null, names: string[]) {
      if (names.length === 0) return { boardId: parentId, created: 0 };
      await access.require(actor, BOARD.create, inWorkspace(workspaceId));
      let created = 0;
      let current = parentId;
      for (const name of names) {
        current = await db.transaction().execute(async (tx) => {
          if (current) await checkParent(tx, workspaceId, current, "Board not found.");
          await boardsRepo.lockSiblings(tx, workspaceId, current);
          const existing = await boardsRepo.findChildByName(tx, workspaceId, current, name);
          if (existing) return existing;
          created += 1;
          const position = await boardsRepo.nextPosition(tx, workspaceId, current);
          return (await boardsRepo.insert(tx, { workspaceId, parentId: current, name, position, userId: actor.userId }))
            .id;
        });
      }
      return { boardId: current, created };
    },
    async list(actor: UserActor, workspaceId: string, q: { parentId: string | null }): Promise<Board[]> {
      const grant = await access.require(actor, BOARD.list, inWorkspace(workspaceId));
      if (q.parentId) await liveBoard(workspaceId, q.parentId);
      const abilities = boardAbilities(grant);
      return (await boardsRepo.listChildren(db, workspaceId, q.parentId)).map((b) => ({ ...b, abilities }));
    },
    /** The nested tree (below `parentId`, or all of it) as ready JSON text; see boardsRepo.treeJson. */
    async treeJson(actor: UserActor, workspaceId: string, parentId: string | null): Promise<string> {
      const grant = await access.require(actor, BOARD.list, inWorkspace(workspaceId));
      if (parentId) await liveBoard(workspaceId, parentId);
      return boardsRepo.treeJson(db, workspaceId, parentId, JSON.stringify(boardAbilities(grant)));
    },

    async create(
      actor: UserActor,
      workspaceId: string,
      name: string,
      parentId: string | null,
      filter?: SmartBoardFilter,
    ): Promise<Board> {
      const grant = await access.require(actor, BOARD.create, inWorkspace(workspaceId));
      const created = await db.transaction().execute(async (tx) => {
        if (parentId) await checkParent(tx, workspaceId, parentId, "Parent board not found.");
        if (filter) await checkFilter(tx, workspaceId, null, filter);
        await boardsRepo.lockSiblings(tx, workspaceId, parentId);
        const position = await boardsRepo.nextPosition(tx, workspaceId, parentId);
        return boardsRepo.insert(tx, { workspaceId, parentId, name, position, userId: actor.userId, filter });
      });
      return { ...created, child_count: 0, abilities: boardAbilities(grant) };
    },

    async update(actor: UserActor, workspaceId: string, boardId: string, body: UpdateBoardBody): Promise<Board> {
      const grant = await access.require(actor, BOARD.edit, { kind: "board", workspaceId, boardId });
      await db.transaction().execute(async (tx) => {
        const board = await boardsRepo.get(tx, workspaceId, boardId);
        if (!board) throw notFound("Board not found.");
        if (body.filter !== undefined) {
          if (board.kind !== "smart") throw conflict(SMART.notSmart);
          await checkFilter(tx, workspaceId, boardId, body.filter);
          await boardsRepo.update(tx, boardId, { filter: body.filter });
        }
        if (body.name !== undefined) await boardsRepo.update(tx, boardId, { name: body.name });
        if (body.parent_id === undefined || body.parent_id === board.parent_id) return;
        const parent = body.parent_id;
        if (parent !== null) {
          await checkParent(tx, workspaceId, parent, "Destination board not found.");
          if (await boardsRepo.isSelfOrDescendant(tx, workspaceId, boardId, parent)) {
            throw invalid("A board cannot be moved into itself or one of its sub-boards.", [
              { field: "parent_id", message: "Would create a cycle" },
            ]);
          }
        }
        await boardsRepo.lockSiblings(tx, workspaceId, parent);
        await boardsRepo.update(tx, boardId, {
          parent_id: parent,
          position: await boardsRepo.nextPosition(tx, workspaceId, parent),
        });
      });
      return toBoard(grant, workspaceId, boardId);
    },

    /**
     * Places each listed board at its new index among its siblings (all must share one parent), then
     * renumbers the whole group 0..n-1 in one transaction.
     */
    async reorder(actor: UserActor, workspaceId: string, entries: ReorderEntry[]): Promise<Board[]> {
      const grant = await access.require(actor, BOARD.edit, inWorkspace(workspaceId));
      const ids = new Set(entries.map((e) => e.board_id));
      if (ids.size !== entries.length)
        throw invalid("Each board may appear once.", [{ field: "board_id", message: "Duplicate" }]);
      const first = await liveBoard(workspaceId, entries[0]!.board_id);
      const parent = first.parent_id;
      return db.transaction().execute(async (tx) => {
        await boardsRepo.lockSiblings(tx, workspaceId, parent);
        const siblings = await boardsRepo.listChildren(tx, workspaceId, parent);
        const byId = new Map(siblings.map((s) => [s.id, s]));
        for (const e of entries) {
          if (!byId.has(e.board_id)) {
            const exists = await boardsRepo.get(tx, workspaceId, e.board_id);
            if (!exists) throw notFound("Board not found.");
            throw invalid("Boards reordered together must share a parent.", [
              { field: "board_id", message: "Different parent" },
            ]);
          }
        }
        const rest = siblings.filter((s) => !ids.has(s.id)).map((s) => s.id);
        const placed = [...entries].sort((a, b) => a.new_order - b.new_order);
        for (const e of placed) rest.splice(Math.min(e.new_order, rest.length), 0, e.board_id);
        await boardsRepo.setOrder(tx, workspaceId, rest);
        const abilities = boardAbilities(grant);
        return (await boardsRepo.listChildren(tx, workspaceId, parent)).map((b) => ({ ...b, abilities }));
      });
    },

    async remove(actor: UserActor, workspaceId: string, boardId: string) {
      await access.require(actor, BOARD.delete, { kind: "board", workspaceId, boardId });
      const batch = randomUUID();
      const counts = await db.transaction().execute(async (tx) => {
        if (!(await boardsRepo.get(tx, workspaceId, boardId))) throw notFound("Board not found.");
        const ids = await boardsRepo.subtree(tx, workspaceId, boardId);
        // Assets first: which live only inside the subtree is decided while its boards are still live.
        const assets = await deps.assets.softDeleteOnlyIn(workspaceId, ids, actor.userId, batch, tx);
        return { assets, boards: await boardsRepo.softDelete(tx, workspaceId, ids, actor.userId, batch) };
      });
      return { status: "ok" as const, batch_id: batch, deleted_boards: counts.boards, deleted_assets: counts.assets };
    },

    /** Brings back everything deleted together with this board. */
    async restore(actor: UserActor, workspaceId: string, boardId: string) {
      await access.require(actor, BOARD.delete, { kind: "board", workspaceId, boardId });
      const batch = await boardsRepo.batchOfBoard(db, workspaceId, boardId);
      if (!batch) throw notFound("Deleted board not found.");
      const r = await restoreBatch(workspaceId, batch);
      return { status: "ok" as const, restored_boards: r.boards, restored_assets: r.assets };
    },

    async ancestors(actor: UserActor, workspaceId: string, boardId: string) {
      await access.require(actor, BOARD.view, { kind: "board", workspaceId, boardId });
      await liveBoard(workspaceId, boardId);
      return boardsRepo.ancestors(db, workspaceId, boardId);
    },

    async addAssets(actor: UserActor, workspaceId: string, boardId: string, assetIds: string[]) {
      await access.require(actor, BOARD.edit, { kind: "board", workspaceId, boardId });
      if ((await liveBoard(workspaceId, boardId)).kind === "smart") throw conflict(SMART.noFiling);
      const unique = await deps.assets.requireLive(workspaceId, assetIds);
      return { status: "ok" as const, count: await deps.assets.addToBoard(boardId, unique, actor.userId) };
    },

    async removeAssets(actor: UserActor, workspaceId: string, boardId: string, assetIds: string[]) {
      await access.require(actor, BOARD.edit, { kind: "board", workspaceId, boardId });
      if ((await liveBoard(workspaceId, boardId)).kind === "smart") throw conflict(SMART.noFiling);
      return { status: "ok" as const, count: await deps.assets.removeFromBoard(boardId, [...new Set(assetIds)]) };
    },
  };
}
export type BoardsService = ReturnType<typeof createBoardsService>;
