export { type PipelineDeps, permanentReason, processAsset, type Tagger } from "./pipeline.ts";
