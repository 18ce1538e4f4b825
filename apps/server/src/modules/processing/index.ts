export {
  type PipelineDeps,
  permanentReason,
  processAsset,
  type Tagger,
  type TextReader,
  type Vision,
} from "./pipeline.ts";
export { readAssetText, type TextJobDeps, textSources } from "./text-job.ts";
