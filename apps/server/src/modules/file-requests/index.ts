export { createRequestUploadsService, type RequestUploadsService } from "./public-service.ts";
export { createFileRequestsService, type FileRequestsService } from "./service.ts";
