export { type FacePicture, withFacePictures } from "./face-pictures.ts";
export { hashStoredRenditions } from "./hash-renditions.ts";
export {
  type PipelineDeps,
  permanentReason,
  processAsset,
  type Tagger,
  type TextReader,
} from "./pipeline.ts";
export { readAssetText, type TextJobDeps, textSources } from "./text-job.ts";
export { createVisionRecords, type Extracted, type Vision, type VisionRecords } from "./vision.ts";
