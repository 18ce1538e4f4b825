export { type BoardsService, createBoardsService } from "./service.ts";
