// The duplicates feature's public surface (issue 32): its route; the page loads on demand.
export { duplicatesRoute } from "./routes";
