// The trash feature's public surface: its route (its query keys are in entities/asset, beside the assets').
export { trashRoute } from "./routes";
