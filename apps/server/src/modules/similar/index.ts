export { SIMILAR } from "./policy.ts";
export { createSimilarService, type SimilarService } from "./service.ts";
