export { createTrashService, type TrashService } from "./service.ts";
