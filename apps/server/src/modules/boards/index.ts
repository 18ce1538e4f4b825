export { BOARD, boardAbilities } from "./policy.ts";
export { type BoardsService, createBoardsService } from "./service.ts";
