import { NOTIFICATION_TIMEOUT_MS } from "@hangar/contract";
import { MantineProvider } from "@mantine/core";
import { notificationsStore, useNotifications } from "@mantine/notifications";
import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { RouterProvider } from "react-router-dom";
import { endSession } from "../features/auth";
import { DeferredModals } from "../lib/confirm-modal";
import { createQueryClient } from "./query-client";
import { router } from "./router";
import { cssVariablesResolver, theme } from "./theme";

const queryClient = createQueryClient(endSession);

const TOAST_LIMIT = 4;
const TOAST_POSITION = "bottom-right";
// The store spreads toasts by these from the first one on; the view, once mounted, sets the same.
notificationsStore.updateState((state) => ({ ...state, limit: TOAST_LIMIT, defaultPosition: TOAST_POSITION }));
type NotificationsView = typeof import("./notifications-view").Notifications;

/**
 * The toasts' view is fetched with the first toast, not on every first load, and then stays. It is
 * mounted once its code is here, not through a Suspense boundary: mounted as a just-resolved lazy
 * component, its portal did not show the toast that was already in the store until the next one.
 */
function DeferredNotifications() {
  const { notifications, queue } = useNotifications();
  const wanted = notifications.length + queue.length > 0;
  const [View, setView] = useState<NotificationsView | null>(null);
  useEffect(() => {
    if (wanted && !View) void import("./notifications-view").then((mod) => setView(() => mod.Notifications));
  }, [wanted, View]);
  return View ? <View position={TOAST_POSITION} autoClose={NOTIFICATION_TIMEOUT_MS} limit={TOAST_LIMIT} /> : null;
}

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <DeferredNotifications />
        <DeferredModals />
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
