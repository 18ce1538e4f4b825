import { NOTIFICATION_TIMEOUT_MS } from "@hangar/contract";
import { notifications } from "@mantine/notifications";
import { createElement } from "react";
import { ActionToast } from "./action-toast";

/** Green toast for a finished action (spec 01 §8 positive notifications). */
export function notifySuccess(message: string, title?: string): void {
  notifications.show({ message, title, color: "green", autoClose: NOTIFICATION_TIMEOUT_MS });
}

/** Red toast for a failure (spec 01 §8 negative notifications). */
export function notifyError(message: string, title?: string): void {
  notifications.show({ message, title, color: "red", autoClose: NOTIFICATION_TIMEOUT_MS });
}

/**
 * Green toast with one action button beside the text (e.g. "Undo" after a delete). The text stays the
 * catalogue's exact message; the button closes the toast before running the action.
 */
export function notifySuccessWithAction(message: string, action: { label: string; onClick: () => void }): void {
  const id = notifications.show({
    color: "green",
    autoClose: NOTIFICATION_TIMEOUT_MS,
    message: createElement(ActionToast, {
      message,
      label: action.label,
      onClick: () => {
        notifications.hide(id);
        action.onClick();
      },
    }),
  });
}
