// The toasts' view (and its transition library), in a chunk of its own: app.tsx mounts it with the first toast.
export { Notifications } from "@mantine/notifications";
