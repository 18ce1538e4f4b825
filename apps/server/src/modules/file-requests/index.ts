export { REQUEST_LINKS, type RequestUploader } from "./kind.ts";
export { FILE_REQUEST } from "./policy.ts";
export { createRequestUploadsService, type RequestUploadsService, type RequestVisit } from "./public-service.ts";
export { createFileRequestsService, type FileRequestsService } from "./service.ts";
