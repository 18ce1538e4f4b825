export { createWatermarks, type Served, WATERMARK_CACHE_MAX, type Watermarks, watermarkHash } from "./service.ts";
