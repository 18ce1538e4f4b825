export {
  type PipelineDeps,
  permanentReason,
  processAsset,
  type Tagger,
  type TextReader,
  type Vision,
} from "./pipeline.ts";
