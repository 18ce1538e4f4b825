export { createUploadsService, type UploadsService } from "./service.ts";
