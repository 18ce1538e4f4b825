// How dates and video times read on every screen (spec 02 §9). Sizes: formatBytes in @hangar/contract.
export { formatDuration, relativeTime, timecode } from "./dates";
