import { NOTIFICATION_TIMEOUT_MS } from "@hangar/contract";
import { notifications } from "@mantine/notifications";

/** Green toast for a finished action (spec 01 §8 positive notifications). */
export function notifySuccess(message: string, title?: string): void {
  notifications.show({ message, title, color: "green", autoClose: NOTIFICATION_TIMEOUT_MS });
}

/** Red toast for a failure (spec 01 §8 negative notifications). */
export function notifyError(message: string, title?: string): void {
  notifications.show({ message, title, color: "red", autoClose: NOTIFICATION_TIMEOUT_MS });
}
