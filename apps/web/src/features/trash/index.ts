// The trash feature's public surface: its route and the query keys others invalidate.
export { trashKeys } from "./api";
export { trashRoute } from "./routes";
